-- CreateTable
CREATE TABLE "ReportVerification" (
    "id" TEXT NOT NULL,
    "researchId" TEXT,
    "messageId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'checking',
    "original" TEXT NOT NULL,
    "repaired" TEXT,
    "claims" INTEGER NOT NULL DEFAULT 0,
    "supported" INTEGER NOT NULL DEFAULT 0,
    "partial" INTEGER NOT NULL DEFAULT 0,
    "unsupported" INTEGER NOT NULL DEFAULT 0,
    "uncited" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "rewritten" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "ReportVerification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClaimVerdict" (
    "id" TEXT NOT NULL,
    "verificationId" TEXT NOT NULL,
    "pass" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "sentence" TEXT NOT NULL,
    "urls" TEXT NOT NULL DEFAULT '[]',
    "verdict" TEXT NOT NULL,
    "quote" TEXT,
    "quoteUrl" TEXT,
    "note" TEXT,

    CONSTRAINT "ClaimVerdict_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReportVerification_researchId_key" ON "ReportVerification"("researchId");

-- CreateIndex
CREATE UNIQUE INDEX "ReportVerification_messageId_key" ON "ReportVerification"("messageId");

-- CreateIndex
CREATE UNIQUE INDEX "ClaimVerdict_verificationId_pass_position_key" ON "ClaimVerdict"("verificationId", "pass", "position");

-- AddForeignKey
ALTER TABLE "ReportVerification" ADD CONSTRAINT "ReportVerification_researchId_fkey" FOREIGN KEY ("researchId") REFERENCES "Research"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReportVerification" ADD CONSTRAINT "ReportVerification_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ConversationMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClaimVerdict" ADD CONSTRAINT "ClaimVerdict_verificationId_fkey" FOREIGN KEY ("verificationId") REFERENCES "ReportVerification"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "userId" TEXT,
    "parentRunId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "mode" TEXT NOT NULL DEFAULT '',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "cancelRequestedAt" TIMESTAMP(3),
    "seq" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Run_userId_status_idx" ON "Run"("userId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Run_kind_subjectId_key" ON "Run"("kind", "subjectId");


-- Every research that was ever started gets its run. A running one has no lease, so the first
-- process to start takes it over.
INSERT INTO "Run" ("id", "kind", "subjectId", "userId", "status", "mode", "attempt", "createdAt", "startedAt", "completedAt", "error")
SELECT 'run-' || "id", 'tree', "id", "userId", "status", 'tree', 1, "createdAt", "startedAt", "completedAt", "error"
FROM "Research" WHERE "status" <> 'draft';

-- AlterTable
ALTER TABLE "ShareLink" ADD COLUMN     "conversationId" TEXT,
ALTER COLUMN "researchId" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "ShareLink_conversationId_idx" ON "ShareLink"("conversationId");

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;


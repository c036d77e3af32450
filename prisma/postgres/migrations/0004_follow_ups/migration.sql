-- AlterTable
ALTER TABLE "Research" ADD COLUMN     "background" TEXT,
ADD COLUMN     "parentQueryId" TEXT,
ADD COLUMN     "parentResearchId" TEXT;

-- CreateIndex
CREATE INDEX "Research_parentResearchId_idx" ON "Research"("parentResearchId");

-- AddForeignKey
ALTER TABLE "Research" ADD CONSTRAINT "Research_parentResearchId_fkey" FOREIGN KEY ("parentResearchId") REFERENCES "Research"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- CreateIndex
CREATE INDEX "QueryPage_pageId_idx" ON "QueryPage"("pageId");

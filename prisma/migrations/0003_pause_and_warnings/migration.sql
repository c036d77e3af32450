-- A research waiting for its LLM provider, and the warnings of a run that went on without something.
ALTER TABLE "Research" ADD COLUMN "pausedAt" DATETIME;
ALTER TABLE "Research" ADD COLUMN "pauseReason" TEXT;
ALTER TABLE "Research" ADD COLUMN "warnings" TEXT NOT NULL DEFAULT '[]';

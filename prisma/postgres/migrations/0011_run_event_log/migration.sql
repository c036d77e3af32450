

-- CreateTable
CREATE TABLE "RunEvent" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "at" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "RunEvent_pkey" PRIMARY KEY ("runId","seq")
);


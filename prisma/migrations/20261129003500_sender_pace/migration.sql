-- DropTable
DROP TABLE "SenderRateSlot";

-- CreateTable
CREATE TABLE "SenderPace" (
    "senderId" TEXT NOT NULL,
    "nextAt" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "otherAt" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "SenderPace_pkey" PRIMARY KEY ("senderId")
);

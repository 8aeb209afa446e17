-- AlterTable
ALTER TABLE "WebhookDestination" ADD COLUMN     "maxDeliveriesPerSecond" INTEGER;

-- CreateTable
CREATE TABLE "WebhookRateSlot" (
    "destinationId" TEXT NOT NULL,
    "second" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "WebhookRateSlot_pkey" PRIMARY KEY ("destinationId","second")
);

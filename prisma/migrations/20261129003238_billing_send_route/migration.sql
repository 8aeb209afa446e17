-- AlterTable
ALTER TABLE "BillingRecord" ADD COLUMN     "sendRoute" TEXT;

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_sendRoute_createdAt_id_idx" ON "BillingRecord"("customerId", "sendRoute", "createdAt", "id");

-- Records kept so far: their message's route, or "external" when no message of this service holds
-- the id (docs/event-pipeline.md "Statuses for messages we did not send").
UPDATE "BillingRecord" AS b
SET "sendRoute" = COALESCE(
  (SELECT m."sendRoute" FROM "Message" AS m WHERE m."providerMessageId" = b."messageId" AND m."customerId" = b."customerId"),
  'external');

-- The message a send under an Idempotency-Key recorded (written in the statement that stores
-- the message): a retry whose first request stopped unanswered answers it (docs/idempotency.md).
ALTER TABLE "IdempotencyKey" ADD COLUMN     "messageId" TEXT;

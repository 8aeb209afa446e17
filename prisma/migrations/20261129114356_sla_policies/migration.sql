-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "slaDueAt" TIMESTAMP(3),
ADD COLUMN     "slaPolicyId" TEXT;

-- CreateTable
CREATE TABLE "SlaPolicy" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "firstResponseMinutes" INTEGER,
    "nextResponseMinutes" INTEGER,
    "resolutionMinutes" INTEGER,
    "businessHoursOnly" BOOLEAN NOT NULL DEFAULT false,
    "senderIds" TEXT[],
    "labels" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SlaPolicy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlaBreach" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "periodId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "breachedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SlaBreach_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SlaPolicy_customerId_position_idx" ON "SlaPolicy"("customerId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "SlaBreach_key_key" ON "SlaBreach"("key");

-- CreateIndex
CREATE INDEX "SlaBreach_conversationId_breachedAt_idx" ON "SlaBreach"("conversationId", "breachedAt");

-- CreateIndex
CREATE INDEX "SlaBreach_customerId_breachedAt_idx" ON "SlaBreach"("customerId", "breachedAt");

-- CreateIndex
CREATE INDEX "Conversation_customerId_slaDueAt_id_idx" ON "Conversation"("customerId", "slaDueAt", "id");

-- AddForeignKey
ALTER TABLE "SlaPolicy" ADD CONSTRAINT "SlaPolicy_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SlaBreach" ADD CONSTRAINT "SlaBreach_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

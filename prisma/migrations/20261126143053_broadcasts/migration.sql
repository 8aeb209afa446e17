-- CreateEnum
CREATE TYPE "BroadcastStatus" AS ENUM ('DRAFT', 'SCHEDULED', 'SENDING', 'PAUSED', 'COMPLETED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "BroadcastRecipientStatus" AS ENUM ('queued', 'skipped', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'interrupted');

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "broadcastId" TEXT;

-- CreateTable
CREATE TABLE "Broadcast" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "BroadcastStatus" NOT NULL DEFAULT 'DRAFT',
    "pauseReason" TEXT,
    "resumesAt" TIMESTAMP(3),
    "templateName" TEXT NOT NULL,
    "templateLanguage" TEXT NOT NULL,
    "audience" JSONB NOT NULL,
    "variables" JSONB NOT NULL,
    "scheduledAt" TIMESTAMP(3),
    "maxPerSecond" INTEGER,
    "estimate" JSONB,
    "lockedUntil" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Broadcast_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BroadcastRecipient" (
    "id" BIGSERIAL NOT NULL,
    "broadcastId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "phoneNumber" TEXT NOT NULL,
    "contactId" TEXT,
    "parameters" JSONB,
    "status" "BroadcastRecipientStatus" NOT NULL DEFAULT 'queued',
    "skipReason" TEXT,
    "errorCode" INTEGER,
    "errorMessage" TEXT,
    "messageId" TEXT,
    "providerMessageId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "notBefore" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "sendingAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "replied" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BroadcastRecipient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MessagingLimitContact" (
    "accountKey" TEXT NOT NULL,
    "phoneNumber" TEXT NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MessagingLimitContact_pkey" PRIMARY KEY ("accountKey","phoneNumber")
);

-- CreateTable
CREATE TABLE "SenderRateSlot" (
    "senderId" TEXT NOT NULL,
    "second" BIGINT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "broadcastCount" INTEGER NOT NULL DEFAULT 0,
    "otherCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SenderRateSlot_pkey" PRIMARY KEY ("senderId","second")
);

-- CreateIndex
CREATE INDEX "Broadcast_customerId_createdAt_id_idx" ON "Broadcast"("customerId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "Broadcast_customerId_senderId_createdAt_id_idx" ON "Broadcast"("customerId", "senderId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "Broadcast_status_scheduledAt_idx" ON "Broadcast"("status", "scheduledAt");

-- CreateIndex
CREATE UNIQUE INDEX "BroadcastRecipient_messageId_key" ON "BroadcastRecipient"("messageId");

-- CreateIndex
CREATE INDEX "BroadcastRecipient_broadcastId_status_id_idx" ON "BroadcastRecipient"("broadcastId", "status", "id");

-- CreateIndex
CREATE INDEX "BroadcastRecipient_senderId_phoneNumber_sendingAt_idx" ON "BroadcastRecipient"("senderId", "phoneNumber", "sendingAt");

-- CreateIndex
CREATE UNIQUE INDEX "BroadcastRecipient_broadcastId_phoneNumber_key" ON "BroadcastRecipient"("broadcastId", "phoneNumber");

-- CreateIndex
CREATE INDEX "MessagingLimitContact_accountKey_lastAt_idx" ON "MessagingLimitContact"("accountKey", "lastAt");

-- CreateIndex
CREATE INDEX "Message_customerId_broadcastId_createdAt_idx" ON "Message"("customerId", "broadcastId", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "Broadcast" ADD CONSTRAINT "Broadcast_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Broadcast" ADD CONSTRAINT "Broadcast_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "Sender"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BroadcastRecipient" ADD CONSTRAINT "BroadcastRecipient_broadcastId_fkey" FOREIGN KEY ("broadcastId") REFERENCES "Broadcast"("id") ON DELETE CASCADE ON UPDATE CASCADE;

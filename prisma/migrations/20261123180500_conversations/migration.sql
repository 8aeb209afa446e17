-- CreateEnum
CREATE TYPE "ConversationStatus" AS ENUM ('OPEN', 'CLOSED');

-- AlterTable
ALTER TABLE "Sender" ADD COLUMN     "optInKeywords" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "optOutKeywords" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "BlacklistEntry" ADD COLUMN     "inboundMessageId" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'api';

-- CreateTable
CREATE TABLE "Conversation" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "contactPhoneNumber" TEXT NOT NULL,
    "contactName" TEXT,
    "status" "ConversationStatus" NOT NULL DEFAULT 'OPEN',
    "unreadCount" INTEGER NOT NULL DEFAULT 0,
    "unread" BOOLEAN NOT NULL DEFAULT false,
    "lastMessageAt" TIMESTAMP(3) NOT NULL,
    "lastInboundAt" TIMESTAMP(3),
    "windowExpiresAt" TIMESTAMP(3),
    "lastMessagePreview" TEXT NOT NULL DEFAULT '',
    "closedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationMessage" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "content" JSONB,
    "providerMessageId" TEXT,
    "messageId" TEXT,
    "sentBy" TEXT NOT NULL,
    "sentByLabel" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Conversation_customerId_lastMessageAt_id_idx" ON "Conversation"("customerId", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_unread_lastMessageAt_id_idx" ON "Conversation"("customerId", "unread", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_status_lastMessageAt_id_idx" ON "Conversation"("customerId", "status", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_status_unread_lastMessageAt_id_idx" ON "Conversation"("customerId", "status", "unread", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_senderId_lastMessageAt_id_idx" ON "Conversation"("customerId", "senderId", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_senderId_unread_lastMessageAt_id_idx" ON "Conversation"("customerId", "senderId", "unread", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_senderId_status_lastMessageAt_id_idx" ON "Conversation"("customerId", "senderId", "status", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Conversation_customerId_senderId_status_unread_lastMessageA_idx" ON "Conversation"("customerId", "senderId", "status", "unread", "lastMessageAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_senderId_contactPhoneNumber_key" ON "Conversation"("senderId", "contactPhoneNumber");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMessage_providerMessageId_key" ON "ConversationMessage"("providerMessageId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMessage_messageId_key" ON "ConversationMessage"("messageId");

-- CreateIndex
CREATE INDEX "ConversationMessage_conversationId_createdAt_id_idx" ON "ConversationMessage"("conversationId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "Sender"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMessage" ADD CONSTRAINT "ConversationMessage_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMessage" ADD CONSTRAINT "ConversationMessage_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

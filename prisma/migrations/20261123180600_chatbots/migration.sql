-- CreateEnum
CREATE TYPE "ChatbotReplyStatus" AS ENUM ('PENDING', 'SENT', 'FAILED');

-- CreateTable
CREATE TABLE "Chatbot" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "activeSenderId" TEXT,
    "name" TEXT NOT NULL,
    "status" "ActiveStatus" NOT NULL DEFAULT 'INACTIVE',
    "rules" JSONB NOT NULL,
    "fallbackReply" JSONB,
    "businessHours" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Chatbot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatbotReply" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "chatbotId" TEXT NOT NULL,
    "inboundProviderMessageId" TEXT NOT NULL,
    "contactPhoneNumber" TEXT NOT NULL,
    "matchedRule" INTEGER,
    "handoff" BOOLEAN NOT NULL DEFAULT false,
    "reply" JSONB NOT NULL,
    "status" "ChatbotReplyStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "messageId" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChatbotReply_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Chatbot_activeSenderId_key" ON "Chatbot"("activeSenderId");

-- CreateIndex
CREATE INDEX "Chatbot_customerId_senderId_createdAt_idx" ON "Chatbot"("customerId", "senderId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Chatbot_customerId_createdAt_idx" ON "Chatbot"("customerId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ChatbotReply_inboundProviderMessageId_key" ON "ChatbotReply"("inboundProviderMessageId");

-- CreateIndex
CREATE INDEX "ChatbotReply_status_nextAttemptAt_idx" ON "ChatbotReply"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "ChatbotReply_senderId_contactPhoneNumber_createdAt_idx" ON "ChatbotReply"("senderId", "contactPhoneNumber", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "Chatbot" ADD CONSTRAINT "Chatbot_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Chatbot" ADD CONSTRAINT "Chatbot_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "Sender"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatbotReply" ADD CONSTRAINT "ChatbotReply_chatbotId_fkey" FOREIGN KEY ("chatbotId") REFERENCES "Chatbot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "SupportPeriod" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "waitingSince" TIMESTAMP(3),
    "firstResponseAt" TIMESTAMP(3),
    "firstResponseSeconds" INTEGER,
    "resolvedAt" TIMESTAMP(3),
    "resolutionSeconds" INTEGER,
    "closedBy" TEXT,
    "reopened" BOOLEAN NOT NULL DEFAULT false,
    "inboundCount" INTEGER NOT NULL DEFAULT 0,
    "replyCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SupportPeriod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SupportResponse" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "periodId" TEXT NOT NULL,
    "first" BOOLEAN NOT NULL,
    "waitedFrom" TIMESTAMP(3) NOT NULL,
    "respondedAt" TIMESTAMP(3) NOT NULL,
    "seconds" INTEGER NOT NULL,
    "responder" TEXT NOT NULL,

    CONSTRAINT "SupportResponse_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SupportPeriod_conversationId_startedAt_idx" ON "SupportPeriod"("conversationId", "startedAt");

-- CreateIndex
CREATE INDEX "SupportPeriod_customerId_startedAt_idx" ON "SupportPeriod"("customerId", "startedAt");

-- CreateIndex
CREATE INDEX "SupportPeriod_customerId_resolvedAt_idx" ON "SupportPeriod"("customerId", "resolvedAt");

-- CreateIndex
CREATE INDEX "SupportResponse_customerId_respondedAt_idx" ON "SupportResponse"("customerId", "respondedAt");

-- CreateIndex
CREATE UNIQUE INDEX "SupportResponse_periodId_waitedFrom_key" ON "SupportResponse"("periodId", "waitedFrom");

-- CreateIndex
CREATE INDEX "ConversationMessage_customerId_direction_createdAt_idx" ON "ConversationMessage"("customerId", "direction", "createdAt");

-- AddForeignKey
ALTER TABLE "SupportPeriod" ADD CONSTRAINT "SupportPeriod_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SupportResponse" ADD CONSTRAINT "SupportResponse_periodId_fkey" FOREIGN KEY ("periodId") REFERENCES "SupportPeriod"("id") ON DELETE CASCADE ON UPDATE CASCADE;

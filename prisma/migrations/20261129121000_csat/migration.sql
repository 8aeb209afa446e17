-- AlterTable
ALTER TABLE "Customer" ADD COLUMN     "csat" JSONB;

-- CreateTable
CREATE TABLE "CsatSurvey" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "periodId" TEXT NOT NULL,
    "memberUserId" TEXT,
    "memberEmail" TEXT,
    "closedAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "reason" TEXT,
    "channel" TEXT,
    "messageId" TEXT,
    "score" INTEGER,
    "comment" TEXT,
    "respondedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CsatSurvey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CsatSurvey_periodId_key" ON "CsatSurvey"("periodId");

-- CreateIndex
CREATE INDEX "CsatSurvey_conversationId_closedAt_idx" ON "CsatSurvey"("conversationId", "closedAt");

-- CreateIndex
CREATE INDEX "CsatSurvey_customerId_respondedAt_idx" ON "CsatSurvey"("customerId", "respondedAt");

-- AddForeignKey
ALTER TABLE "CsatSurvey" ADD CONSTRAINT "CsatSurvey_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CsatSurvey" ADD CONSTRAINT "CsatSurvey_periodId_fkey" FOREIGN KEY ("periodId") REFERENCES "SupportPeriod"("id") ON DELETE CASCADE ON UPDATE CASCADE;

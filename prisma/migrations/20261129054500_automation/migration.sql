-- AlterTable
ALTER TABLE "Customer" ADD COLUMN     "businessHours" JSONB;

-- CreateTable
CREATE TABLE "AutomationRule" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "triggerEvent" TEXT NOT NULL,
    "trigger" JSONB NOT NULL,
    "conditions" JSONB NOT NULL,
    "actions" JSONB NOT NULL,
    "senderIds" TEXT[],
    "builtIn" TEXT,
    "lastAssigneeId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutomationRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AutomationRun" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "eventKey" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "conversationId" TEXT,
    "outcome" TEXT NOT NULL,
    "actions" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AutomationRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScheduledJob" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "subjectId" TEXT,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ScheduledJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AutomationRule_customerId_enabled_triggerEvent_idx" ON "AutomationRule"("customerId", "enabled", "triggerEvent");

-- CreateIndex
CREATE INDEX "AutomationRule_customerId_createdAt_idx" ON "AutomationRule"("customerId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "AutomationRule_customerId_builtIn_key" ON "AutomationRule"("customerId", "builtIn");

-- CreateIndex
CREATE INDEX "AutomationRun_ruleId_createdAt_id_idx" ON "AutomationRun"("ruleId", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationRun_ruleId_eventKey_key" ON "AutomationRun"("ruleId", "eventKey");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduledJob_key_key" ON "ScheduledJob"("key");

-- CreateIndex
CREATE INDEX "ScheduledJob_status_kind_dueAt_idx" ON "ScheduledJob"("status", "kind", "dueAt");

-- CreateIndex
CREATE INDEX "ScheduledJob_subjectId_status_idx" ON "ScheduledJob"("subjectId", "status");

-- AddForeignKey
ALTER TABLE "AutomationRule" ADD CONSTRAINT "AutomationRule_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutomationRun" ADD CONSTRAINT "AutomationRun_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AutomationRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

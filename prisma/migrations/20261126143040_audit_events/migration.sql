-- CreateEnum
CREATE TYPE "AuditActorType" AS ENUM ('member', 'api_token', 'operator', 'system');

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "actorType" "AuditActorType" NOT NULL,
    "actorEmail" TEXT,
    "actorUserId" TEXT,
    "tokenId" TEXT,
    "tokenName" TEXT,
    "tokenPrefix" TEXT,
    "targetType" TEXT NOT NULL,
    "targetUid" TEXT NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_customerId_createdAt_id_idx" ON "AuditEvent"("customerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_customerId_action_createdAt_idx" ON "AuditEvent"("customerId", "action", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- AddForeignKey
ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

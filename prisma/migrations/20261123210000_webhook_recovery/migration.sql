-- CreateEnum
CREATE TYPE "RecoveryStatus" AS ENUM ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED');

-- CreateTable
CREATE TABLE "WebhookRecovery" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "destinationId" TEXT NOT NULL,
    "status" "RecoveryStatus" NOT NULL DEFAULT 'QUEUED',
    "since" TIMESTAMP(3) NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "total" INTEGER,
    "requeued" INTEGER NOT NULL DEFAULT 0,
    "cursorCreatedAt" TIMESTAMP(3),
    "cursorId" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "claims" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookRecovery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookRecoveryItem" (
    "recoveryId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,

    CONSTRAINT "WebhookRecoveryItem_pkey" PRIMARY KEY ("recoveryId","deliveryId")
);

-- CreateIndex
CREATE INDEX "WebhookRecovery_status_createdAt_idx" ON "WebhookRecovery"("status", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookRecovery_destinationId_createdAt_idx" ON "WebhookRecovery"("destinationId", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "WebhookRecovery" ADD CONSTRAINT "WebhookRecovery_destinationId_fkey" FOREIGN KEY ("destinationId") REFERENCES "WebhookDestination"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookRecoveryItem" ADD CONSTRAINT "WebhookRecoveryItem_recoveryId_fkey" FOREIGN KEY ("recoveryId") REFERENCES "WebhookRecovery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

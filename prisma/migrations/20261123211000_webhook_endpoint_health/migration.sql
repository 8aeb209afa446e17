-- CreateEnum
CREATE TYPE "BreakerState" AS ENUM ('CLOSED', 'OPEN', 'HALF_OPEN');

-- AlterTable
ALTER TABLE "WebhookDestination" ADD COLUMN     "breakerClosedAt" TIMESTAMP(3),
ADD COLUMN     "breakerOpenCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "breakerOpenedAt" TIMESTAMP(3),
ADD COLUMN     "breakerState" "BreakerState" NOT NULL DEFAULT 'CLOSED',
ADD COLUMN     "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "failingSince" TIMESTAMP(3),
ADD COLUMN     "nextProbeAt" TIMESTAMP(3),
ADD COLUMN     "probeDeliveryId" TEXT,
ADD COLUMN     "probeUntil" TIMESTAMP(3);


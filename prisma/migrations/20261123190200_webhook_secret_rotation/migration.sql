-- AlterTable
ALTER TABLE "WebhookDestination" ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3),
ADD COLUMN     "previousSigningSecretEnc" TEXT,
ADD COLUMN     "secretRotatedAt" TIMESTAMP(3);

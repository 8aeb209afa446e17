-- AlterTable
ALTER TABLE "ProviderCallback" ADD COLUMN     "ignoredStatuses" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "retryAt" TIMESTAMP(3);

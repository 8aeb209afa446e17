-- AlterTable
ALTER TABLE "ProviderCallback" ADD COLUMN     "deadAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "ProviderCallback_deadAt_idx" ON "ProviderCallback"("deadAt");

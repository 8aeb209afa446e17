-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "slaSince" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "SlaPolicy" ADD COLUMN     "termsChangedAt" TIMESTAMP(3);

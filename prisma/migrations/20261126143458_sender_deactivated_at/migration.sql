-- AlterTable
ALTER TABLE "Sender" ADD COLUMN     "deactivatedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Sender" ADD COLUMN     "messagingLimit" INTEGER DEFAULT 10000,
ADD COLUMN     "throughputPerSecond" INTEGER NOT NULL DEFAULT 80;

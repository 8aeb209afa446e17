-- AlterEnum
ALTER TYPE "BroadcastStatus" ADD VALUE 'STARTING' BEFORE 'SENDING';

-- AlterTable
ALTER TABLE "Broadcast" ADD COLUMN     "startCursor" TEXT;

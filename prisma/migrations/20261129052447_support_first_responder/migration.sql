-- AlterTable
ALTER TABLE "SupportPeriod" ADD COLUMN     "firstResponder" TEXT;

-- AlterTable
ALTER TABLE "Customer" ADD COLUMN     "lowBalanceAlerted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "lowBalanceThreshold" DECIMAL(14,6) DEFAULT 5;

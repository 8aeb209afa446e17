-- AlterTable
ALTER TABLE "Customer" ADD COLUMN     "readReceipts" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "providerReadAt" TIMESTAMP(3),
ADD COLUMN     "typingShownAt" TIMESTAMP(3);

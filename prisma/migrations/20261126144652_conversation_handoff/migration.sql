-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "handoffAt" TIMESTAMP(3);

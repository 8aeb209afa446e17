-- AlterTable
ALTER TABLE "ConversationMessage" ADD COLUMN     "reactions" JSONB;

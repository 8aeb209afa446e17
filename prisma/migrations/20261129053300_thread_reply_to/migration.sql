-- AlterTable
ALTER TABLE "ConversationMessage" ADD COLUMN     "replyTo" JSONB;

-- AlterTable
ALTER TABLE "SavedReply" ADD COLUMN     "buttons" JSONB;

-- AlterTable
ALTER TABLE "Template" ADD COLUMN     "origin" TEXT;

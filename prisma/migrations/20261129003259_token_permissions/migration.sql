-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "permissions" TEXT[] DEFAULT ARRAY['*']::TEXT[];

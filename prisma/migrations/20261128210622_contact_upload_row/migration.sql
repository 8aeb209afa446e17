-- AlterTable
ALTER TABLE "Contact" ADD COLUMN     "uploadId" TEXT,
ADD COLUMN     "uploadRow" INTEGER;

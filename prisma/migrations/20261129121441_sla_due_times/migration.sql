-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "slaFirstResponseDueAt" TIMESTAMP(3),
ADD COLUMN     "slaNextResponseDueAt" TIMESTAMP(3),
ADD COLUMN     "slaResolutionDueAt" TIMESTAMP(3);

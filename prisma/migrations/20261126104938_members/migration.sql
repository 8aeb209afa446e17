-- Members and roles (docs/members.md): every existing user becomes an owner (the column's default).
-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'admin', 'developer', 'agent', 'billing');

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "role" "MemberRole" NOT NULL DEFAULT 'owner',
ADD COLUMN     "sendersLimited" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "MemberSender" (
    "userId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,

    CONSTRAINT "MemberSender_pkey" PRIMARY KEY ("userId","senderId")
);

-- CreateIndex
CREATE INDEX "MemberSender_senderId_idx" ON "MemberSender"("senderId");

-- AddForeignKey
ALTER TABLE "MemberSender" ADD CONSTRAINT "MemberSender_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemberSender" ADD CONSTRAINT "MemberSender_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "Sender"("id") ON DELETE CASCADE ON UPDATE CASCADE;

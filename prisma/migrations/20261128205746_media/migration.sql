-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "mediaId" TEXT;

-- AlterTable
ALTER TABLE "ConversationMessage" ADD COLUMN     "mediaId" TEXT;

-- CreateTable
CREATE TABLE "Media" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT,
    "kind" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sha256" TEXT,
    "fileSize" INTEGER,
    "filename" TEXT,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "unavailableReason" TEXT,
    "holdsObject" BOOLEAN NOT NULL DEFAULT false,
    "providerMediaId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "fetchDeadline" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "readyAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MediaObject" (
    "customerId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "mimeType" TEXT NOT NULL,
    "refs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MediaObject_pkey" PRIMARY KEY ("customerId","sha256")
);

-- CreateTable
CREATE TABLE "MediaUsage" (
    "customerId" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MediaUsage_pkey" PRIMARY KEY ("customerId")
);

-- CreateTable
CREATE TABLE "ProviderMedia" (
    "customerId" TEXT NOT NULL,
    "phoneNumberId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "providerMediaId" TEXT,
    "expiresAt" TIMESTAMP(3),
    "claimedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProviderMedia_pkey" PRIMARY KEY ("customerId","phoneNumberId","sha256")
);

-- CreateIndex
CREATE INDEX "Media_customerId_createdAt_idx" ON "Media"("customerId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Media_customerId_sha256_idx" ON "Media"("customerId", "sha256");

-- CreateIndex
CREATE INDEX "Media_status_nextAttemptAt_idx" ON "Media"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Media_expiresAt_idx" ON "Media"("expiresAt");

-- AddForeignKey
ALTER TABLE "Media" ADD CONSTRAINT "Media_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

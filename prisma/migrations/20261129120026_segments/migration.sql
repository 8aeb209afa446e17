-- CreateTable
CREATE TABLE "Segment" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rules" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Segment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Segment_customerId_createdAt_idx" ON "Segment"("customerId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Contact_customerId_phoneNumber_idx" ON "Contact"("customerId", "phoneNumber");

-- CreateIndex
CREATE INDEX "BlacklistEntry_customerId_phoneNumber_idx" ON "BlacklistEntry"("customerId", "phoneNumber");

-- CreateIndex
CREATE INDEX "Conversation_customerId_contactPhoneNumber_idx" ON "Conversation"("customerId", "contactPhoneNumber");

-- AddForeignKey
ALTER TABLE "Segment" ADD CONSTRAINT "Segment_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

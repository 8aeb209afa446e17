-- DropIndex
DROP INDEX "BillingRecord_customerId_createdAt_id_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_senderId_createdAt_id_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_messageTimestamp_id_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_pricingCategory_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_status_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_templateType_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_billable_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_billingClass_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_pricingType_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_recipientId_createdAt_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_conversationId_idx";

-- DropIndex
DROP INDEX "BillingRecord_customerId_phoneNumberId_createdAt_idx";

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_createdAt_id_idx" ON "BillingRecord"("customerId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_messageTimestamp_id_idx" ON "BillingRecord"("customerId", "messageTimestamp", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_pricingCategory_id_idx" ON "BillingRecord"("customerId", "pricingCategory", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_status_id_idx" ON "BillingRecord"("customerId", "status", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_senderId_createdAt_id_idx" ON "BillingRecord"("customerId", "senderId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_phoneNumberId_createdAt_id_idx" ON "BillingRecord"("customerId", "phoneNumberId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_status_createdAt_id_idx" ON "BillingRecord"("customerId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_templateType_createdAt_id_idx" ON "BillingRecord"("customerId", "templateType", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_billable_createdAt_id_idx" ON "BillingRecord"("customerId", "billable", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_billingClass_createdAt_id_idx" ON "BillingRecord"("customerId", "billingClass", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_pricingType_createdAt_id_idx" ON "BillingRecord"("customerId", "pricingType", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_recipientId_createdAt_id_idx" ON "BillingRecord"("customerId", "recipientId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "BillingRecord_customerId_conversationId_createdAt_id_idx" ON "BillingRecord"("customerId", "conversationId", "createdAt", "id");

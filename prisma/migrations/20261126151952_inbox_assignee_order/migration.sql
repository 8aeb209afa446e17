-- CreateIndex
CREATE INDEX "Conversation_customerId_assigneeId_unread_lastMessageAt_id_idx" ON "Conversation"("customerId", "assigneeId", "unread", "lastMessageAt", "id");

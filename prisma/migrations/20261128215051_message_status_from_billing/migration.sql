-- A message keeps its own status (lib/domains/messages/status.ts): a message the provider reported
-- on takes its billing record's status, and a failure its error, as the thread and the reports
-- showed them from the record until now.
UPDATE "Message" AS m
SET "status" = b."status",
    "errorCode" = CASE WHEN b."status" = 'failed' THEN COALESCE(b."errorCode", m."errorCode") ELSE m."errorCode" END,
    "errorMessage" = CASE WHEN b."status" = 'failed' THEN COALESCE(b."errorTitle", m."errorMessage") ELSE m."errorMessage" END
FROM "BillingRecord" AS b
WHERE b."messageId" = m."providerMessageId"
  AND m."status" = 'accepted'
  AND b."status" IN ('sent', 'delivered', 'read', 'failed');

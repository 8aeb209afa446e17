-- Data only: one payable rule for ingest and the seed (lib/billing/payable.ts). Records
-- ingested under the earlier rule were "payable" as soon as the provider priced them,
-- even when only sent or failed; those are free until they are delivered or read (the
-- ingest re-asserts the debit when they get there).
UPDATE "BillingRecord"
SET "billingClass" = 'free'
WHERE "billingClass" = 'payable'
  AND "status" NOT IN ('accepted', 'delivered', 'read')
  AND NOT EXISTS (
    SELECT 1 FROM "BillingTransaction" t WHERE t."idempotencyKey" = 'debit:' || "BillingRecord"."id"
  );

-- Business seconds for the support figures written before their columns existed (migration
-- 20261129184000_support_business_seconds added them null): a report in business hours right
-- after the upgrade would otherwise count only the figures written since (docs/reports.md
-- "Business hours"). Each is computed as the live path computes it (periods.ts, the same SQL
-- function over the same two instants) from the hours the account has at this upgrade, the only
-- ones known. Only figures measured before those columns came are filled: one written since with
-- no business seconds was written while the account had no hours, and hours set later do not
-- rewrite it. Accounts without hours keep null. One statement per column, each a scan of its
-- table; the function is cheap for a wait of hours or days.

-- A response: from the wait's start to the reply.
UPDATE "SupportResponse" AS r
SET "businessSeconds" = switchboard_business_seconds(r."waitedFrom", r."respondedAt", cu."businessHours"::jsonb)
FROM "Customer" AS cu
WHERE cu."id" = r."customerId" AND cu."businessHours" IS NOT NULL
  AND r."businessSeconds" IS NULL
  AND r."respondedAt" < COALESCE((SELECT min(m."finished_at") FROM "_prisma_migrations" AS m
      WHERE m."migration_name" = '20261129184000_support_business_seconds' AND m."rolled_back_at" IS NULL), now())
    AT TIME ZONE 'UTC';

-- A period's first response: the same span as its first response row (waited from, replied at).
UPDATE "SupportPeriod" AS p
SET "firstResponseBusinessSeconds" = switchboard_business_seconds(r."waitedFrom", p."firstResponseAt", cu."businessHours"::jsonb)
FROM "SupportResponse" AS r, "Customer" AS cu
WHERE r."periodId" = p."id" AND r."first" AND cu."id" = p."customerId" AND cu."businessHours" IS NOT NULL
  AND p."firstResponseBusinessSeconds" IS NULL AND p."firstResponseAt" IS NOT NULL
  AND p."firstResponseAt" < COALESCE((SELECT min(m."finished_at") FROM "_prisma_migrations" AS m
      WHERE m."migration_name" = '20261129184000_support_business_seconds' AND m."rolled_back_at" IS NULL), now())
    AT TIME ZONE 'UTC';

-- A period's resolution: from its first inbound to its close.
UPDATE "SupportPeriod" AS p
SET "resolutionBusinessSeconds" = switchboard_business_seconds(p."startedAt", p."resolvedAt", cu."businessHours"::jsonb)
FROM "Customer" AS cu
WHERE cu."id" = p."customerId" AND cu."businessHours" IS NOT NULL
  AND p."resolutionBusinessSeconds" IS NULL AND p."resolvedAt" IS NOT NULL
  AND p."resolvedAt" < COALESCE((SELECT min(m."finished_at") FROM "_prisma_migrations" AS m
      WHERE m."migration_name" = '20261129184000_support_business_seconds' AND m."rolled_back_at" IS NULL), now())
    AT TIME ZONE 'UTC';

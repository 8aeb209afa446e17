-- The support reports' range indexes carry the figures their statements read, so a report reads
-- index pages only (an index-only scan) where it read a table page per row (docs/benchmarks.md
-- "The next limits"). Like every migration here this runs in one transaction (lib/db/migrate.ts),
-- so CONCURRENTLY is not possible: the builds block writes to the two tables while they run, and
-- SupportPeriod is updated by every inbound message (21 s for 1.1M periods and 3.2M
-- responses on the bench's two cores; on a larger database, plan the upgrade for a quiet hour:
-- requests waiting past the statement timeout answer 503). The old indexes are dropped last, so
-- DROP INDEX's lock, which blocks reads too, is taken only at the end and held briefly.

-- CreateIndex
CREATE INDEX "SupportPeriod_customerId_resolvedAt_figures_idx" ON "SupportPeriod"("customerId", "resolvedAt", "senderId", "resolutionSeconds", "resolutionBusinessSeconds", "closedBy");

-- CreateIndex
CREATE INDEX "SupportResponse_customerId_respondedAt_figures_idx" ON "SupportResponse"("customerId", "respondedAt", "first", "senderId", "seconds", "businessSeconds", "responder");

-- DropIndex
DROP INDEX "SupportPeriod_customerId_resolvedAt_idx";

-- DropIndex
DROP INDEX "SupportResponse_customerId_respondedAt_idx";

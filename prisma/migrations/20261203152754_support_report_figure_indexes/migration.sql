-- The support reports' range indexes carry the figures their statements read, so a report reads
-- index pages only (an index-only scan) where it read a table page per row (docs/benchmarks.md
-- "Support reports"). The new indexes are built before the old ones go, so the reports keep an
-- index throughout. Like every migration here this runs in a transaction: the build blocks writes
-- to the two tables while it runs (seconds for millions of rows).

-- CreateIndex
CREATE INDEX "SupportPeriod_customerId_resolvedAt_figures_idx" ON "SupportPeriod"("customerId", "resolvedAt", "senderId", "resolutionSeconds", "resolutionBusinessSeconds", "closedBy");

-- CreateIndex
CREATE INDEX "SupportResponse_customerId_respondedAt_figures_idx" ON "SupportResponse"("customerId", "respondedAt", "first", "senderId", "seconds", "businessSeconds", "responder");

-- DropIndex
DROP INDEX "SupportPeriod_customerId_resolvedAt_idx";

-- DropIndex
DROP INDEX "SupportResponse_customerId_respondedAt_idx";

-- A delivery row is updated three times on its way (claim lease, attempt start, outcome);
-- the first two change no indexed column, so with free room on the row's page they are
-- HOT updates (no new index entries). Packed pages (the default fillfactor 100) left no
-- room and made every update write all four indexes (docs/event-pipeline.md "Delivery worker").
-- Applies to pages written from now on.
ALTER TABLE "WebhookDelivery" SET (fillfactor = 70);

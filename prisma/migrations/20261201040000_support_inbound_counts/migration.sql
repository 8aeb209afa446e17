-- The support heatmap (docs/reports.md "How the heatmap counts", lib/domains/support/report.ts) counted a
-- year's inbound messages of a large account (5M rows) for each request: 1.1 s at 1M
-- conversations (docs/benchmarks.md "Support reports"). It now sums these counts, per sender
-- and 15 minutes of UTC (every zone's offset since 1980 is a multiple of 15 minutes, so a zone's
-- hour and a range's midnight are whole buckets). Triggers keep them whoever writes ConversationMessage
-- (the callback processor, the simulator, the demo seed, a direct SQL insert, delete, update
-- or truncate, a conversation deleted), so they never disagree with the messages. A statement adds a row per bucket it
-- touched (never an update of a shared row: two callback transactions of one account would
-- queue on it); the background worker folds them into the bucket's merged row
-- (lib/domains/support/inbound-counts.ts).

-- CreateTable
CREATE TABLE "SupportInboundCount" (
    "id" BIGSERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "senderId" TEXT NOT NULL,
    "bucket" TIMESTAMP(3) NOT NULL,
    "inbound" INTEGER NOT NULL,
    "merged" BOOLEAN,

    CONSTRAINT "SupportInboundCount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SupportInboundCount_customerId_bucket_idx" ON "SupportInboundCount"("customerId", "bucket");

-- CreateIndex
CREATE INDEX "SupportInboundCount_merged_id_idx" ON "SupportInboundCount"("merged", "id");

-- CreateIndex
CREATE UNIQUE INDEX "SupportInboundCount_customerId_senderId_bucket_merged_key" ON "SupportInboundCount"("customerId", "senderId", "bucket", "merged");

-- AddForeignKey
ALTER TABLE "SupportInboundCount" ADD CONSTRAINT "SupportInboundCount_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- "merged": true on a bucket's one merged row (the fold upserts it on the unique index), null on
-- the rows still to fold (nulls are distinct in a unique index, so there may be any number).

-- Once per statement: `changed` is the statement's transition table, the rows it added (INSERT:
-- counted in) or removed (DELETE: counted out), as the label-id triggers name it.
CREATE FUNCTION "switchboard_inbound_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SupportInboundCount" ("customerId", "senderId", "bucket", "inbound")
  SELECT m."customerId", c."senderId", date_bin('15 minutes', m."createdAt", timestamp '2000-01-01'),
    CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END * count(*)::int
  FROM changed m JOIN "Conversation" c ON c."id" = m."conversationId"
  WHERE m."direction" = 'inbound'
  GROUP BY 1, 2, 3;
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationMessage_inbound_added" AFTER INSERT ON "ConversationMessage"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_inbound_changed"();
CREATE TRIGGER "ConversationMessage_inbound_removed" AFTER DELETE ON "ConversationMessage"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_inbound_changed"();

-- A row updated in place in what it counts for (the product never does; a reaction's update
-- names none of these columns, so this does not fire for it): out of its old bucket, into its new one.
CREATE FUNCTION "switchboard_inbound_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SupportInboundCount" ("customerId", "senderId", "bucket", "inbound")
  SELECT OLD."customerId", c."senderId", date_bin('15 minutes', OLD."createdAt", timestamp '2000-01-01'), -1
  FROM "Conversation" c WHERE c."id" = OLD."conversationId" AND OLD."direction" = 'inbound'
  UNION ALL
  SELECT NEW."customerId", c."senderId", date_bin('15 minutes', NEW."createdAt", timestamp '2000-01-01'), 1
  FROM "Conversation" c WHERE c."id" = NEW."conversationId" AND NEW."direction" = 'inbound';
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationMessage_inbound_moved" AFTER UPDATE OF "customerId", "conversationId", "direction", "createdAt"
  ON "ConversationMessage" FOR EACH ROW
  WHEN (OLD."customerId" IS DISTINCT FROM NEW."customerId" OR OLD."conversationId" IS DISTINCT FROM NEW."conversationId"
    OR OLD."direction" IS DISTINCT FROM NEW."direction" OR OLD."createdAt" IS DISTINCT FROM NEW."createdAt")
  EXECUTE FUNCTION "switchboard_inbound_moved"();

-- A conversation deleted (the product never deletes one alone; a sender without history goes
-- with its conversations): its entries are still there before the delete, and once it is gone the
-- entries' own delete trigger finds no sender to subtract from. Not when its customer is being
-- deleted: the counts go with the customer (cascade), and a row for it could not be inserted.
CREATE FUNCTION "switchboard_inbound_conversation_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SupportInboundCount" ("customerId", "senderId", "bucket", "inbound")
  SELECT OLD."customerId", OLD."senderId", date_bin('15 minutes', m."createdAt", timestamp '2000-01-01'), -count(*)::int
  FROM "ConversationMessage" m
  WHERE m."conversationId" = OLD."id" AND m."direction" = 'inbound'
    AND EXISTS (SELECT 1 FROM "Customer" cu WHERE cu."id" = OLD."customerId")
  GROUP BY 3;
  RETURN OLD;
END
$$;
CREATE TRIGGER "Conversation_inbound_gone" BEFORE DELETE ON "Conversation" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_inbound_conversation_gone"();

-- TRUNCATE (not DELETE): it waits for a fold under way, whose merged rows a DELETE begun before
-- their commit would not see.
CREATE FUNCTION "switchboard_inbound_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "SupportInboundCount";
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationMessage_inbound_truncated" AFTER TRUNCATE ON "ConversationMessage"
  FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_inbound_truncated"();

-- The heatmap was this index's one reader (markInboundRead finds a message by its provider id):
-- one index fewer to write per message, where the triggers add a statement per insert.
DROP INDEX "ConversationMessage_customerId_direction_createdAt_idx";

-- The messages stored so far, as merged rows. The triggers exist first: CREATE TRIGGER's lock
-- holds back any insert until this migration commits, and that insert is then counted by them.
INSERT INTO "SupportInboundCount" ("customerId", "senderId", "bucket", "inbound", "merged")
SELECT m."customerId", c."senderId", date_bin('15 minutes', m."createdAt", timestamp '2000-01-01'), count(*)::int, true
FROM "ConversationMessage" m JOIN "Conversation" c ON c."id" = m."conversationId"
WHERE m."direction" = 'inbound'
GROUP BY 1, 2, 3;

-- The report by label and the label filter (docs/reports.md "By label", lib/domains/support/report.ts)
-- read each close's and next response's label ids from the table: the one column of their statements
-- the report indexes did not carry, since a conversation's labels have no upper bound and a B-tree
-- entry must fit in a third of a page. A conversation's labels are now also named by a set:
-- SupportLabelSet, one row per distinct set of label ids of an account, whose id is a hash of the
-- ids. Periods and responses carry that id ("labelSetId", eight bytes whatever the number of labels),
-- kept by the label triggers with "labelIds" (migration 20261130152944_support_label_ids), and the
-- figures indexes carry it, so those statements read index pages only (docs/benchmarks.md "The next
-- limits": the month's next responses by label 540 -> 420 ms).
--
-- Like every migration here this runs in one transaction (lib/db/migrate.ts): ADD COLUMN locks the
-- two tables, reads too, until it commits, through the rewrite of the labelled rows and the index
-- builds: 96 s for 1.1M periods and 3.2M responses on the bench's two cores, measured in a
-- rolled-back transaction (on a large database, plan the upgrade for a quiet hour: requests waiting
-- past the statement timeout answer 503). The old indexes are dropped first
-- so the rewrite does not maintain them; the foreign key to Customer, which blocks writes to it until
-- the commit, is added last.
--
-- Label changes wait for the upgrade, and it for those under way: a change whose trigger began
-- before the new functions would, once the upgrade commits, write the periods' labelIds without
-- their set.
LOCK TABLE "ConversationLabel" IN SHARE ROW EXCLUSIVE MODE;

-- DropIndex
DROP INDEX "SupportPeriod_customerId_resolvedAt_figures_idx";

-- DropIndex
DROP INDEX "SupportResponse_customerId_respondedAt_figures_idx";

-- AlterTable
ALTER TABLE "SupportPeriod" ADD COLUMN     "labelSetId" BIGINT;

-- AlterTable
ALTER TABLE "SupportResponse" ADD COLUMN     "labelSetId" BIGINT;

-- CreateTable
CREATE TABLE "SupportLabelSet" (
    "customerId" TEXT NOT NULL,
    "id" BIGINT NOT NULL,
    "labelIds" TEXT[],

    CONSTRAINT "SupportLabelSet_pkey" PRIMARY KEY ("customerId","id")
);

-- The id of a set of label ids (in order; null for none): the first 64 bits of the MD5 of its text
-- form, so every writer names a set alike without reading it back. Two sets of one account with one
-- id (about one chance in 30 million at a million sets) fail the writer below rather than count
-- under each other's labels.
CREATE FUNCTION "switchboard_support_label_set_id"(ids text[]) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cardinality(ids) > 0 THEN ('x' || left(md5(ids::text), 16))::bit(64)::bigint END
$$;

-- The id of the account's set of `ids`, the set written if it is new (null: no label). A writer of a
-- new set waits for another writing the same one to commit (the primary key), then finds it.
CREATE FUNCTION "switchboard_support_label_set"(customer text, ids text[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  set_id bigint := "switchboard_support_label_set_id"(ids);
BEGIN
  IF set_id IS NULL THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "SupportLabelSet" WHERE "customerId" = customer AND "id" = set_id AND "labelIds" = ids) THEN
    INSERT INTO "SupportLabelSet" ("customerId", "id", "labelIds") VALUES (customer, set_id, ids)
      ON CONFLICT ("customerId", "id") DO NOTHING;
    IF NOT EXISTS (SELECT 1 FROM "SupportLabelSet" WHERE "customerId" = customer AND "id" = set_id AND "labelIds" = ids) THEN
      RAISE EXCEPTION 'two label sets of account % have the id %', customer, set_id;
    END IF;
  END IF;
  RETURN set_id;
END
$$;

-- A new period takes its conversation's labels and their set; a new response its period's.
CREATE OR REPLACE FUNCTION "switchboard_support_period_label_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."labelIds" := "switchboard_conversation_label_ids"(NEW."conversationId");
  NEW."labelSetId" := "switchboard_support_label_set"(NEW."customerId", NEW."labelIds");
  RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION "switchboard_support_response_label_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  set_id bigint;
BEGIN
  SELECT sp."labelIds", sp."labelSetId" INTO ids, set_id FROM "SupportPeriod" sp WHERE sp."id" = NEW."periodId";
  NEW."labelIds" := COALESCE(ids, ARRAY[]::text[]);
  NEW."labelSetId" := set_id;
  RETURN NEW;
END
$$;

-- The periods and responses of `conversations` take their labels again, and their set. The locks
-- are as before (migration 20261130152944_support_label_ids): the conversations first, in id order.
-- New sets are written in the order of their ids, so two changes writing the same new sets wait for
-- each other in one order.
CREATE OR REPLACE FUNCTION "switchboard_refresh_support_label_ids"(conversations text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "Conversation" WHERE "id" = ANY(conversations) ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "SupportPeriod" sp SET "labelIds" = now_carried.ids, "labelSetId" = now_carried.set_id
    FROM (SELECT carried.id, carried.ids, "switchboard_support_label_set"(carried.customer, carried.ids) AS set_id
      FROM (SELECT touched.id, c."customerId" AS customer, "switchboard_conversation_label_ids"(touched.id) AS ids
        FROM unnest(conversations) touched(id) JOIN "Conversation" c ON c."id" = touched.id) carried
      ORDER BY "switchboard_support_label_set_id"(carried.ids)) now_carried
    WHERE sp."conversationId" = now_carried.id
      AND (sp."labelIds" IS DISTINCT FROM now_carried.ids OR sp."labelSetId" IS DISTINCT FROM now_carried.set_id);
  UPDATE "SupportResponse" sr SET "labelIds" = sp."labelIds", "labelSetId" = sp."labelSetId" FROM "SupportPeriod" sp
    WHERE sr."periodId" = sp."id" AND sp."conversationId" = ANY(conversations)
      AND (sr."labelIds" IS DISTINCT FROM sp."labelIds" OR sr."labelSetId" IS DISTINCT FROM sp."labelSetId");
END
$$;

-- Every label taken off at once.
CREATE OR REPLACE FUNCTION "switchboard_conversation_labels_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SupportPeriod" SET "labelIds" = ARRAY[]::text[], "labelSetId" = NULL
    WHERE "labelIds" IS DISTINCT FROM ARRAY[]::text[] OR "labelSetId" IS NOT NULL;
  UPDATE "SupportResponse" SET "labelIds" = ARRAY[]::text[], "labelSetId" = NULL
    WHERE "labelIds" IS DISTINCT FROM ARRAY[]::text[] OR "labelSetId" IS NOT NULL;
  RETURN NULL;
END
$$;

-- The sets of the periods and responses stored before this migration (two of one id fail it: the
-- primary key), and each labelled row's id of its own ids (the triggers kept a response's equal to
-- its period's; taking the period's by a join instead took 137 s rather than 46 s for the bench's
-- 3.2M responses). Rows and sets already there are left alone (none here; a test runs these again:
-- lib/domains/support/label-report.test.ts).
INSERT INTO "SupportLabelSet" ("customerId", "id", "labelIds")
  SELECT DISTINCT labelled."customerId", "switchboard_support_label_set_id"(labelled.ids), labelled.ids FROM (
    SELECT "customerId", "labelIds" AS ids FROM "SupportPeriod" WHERE cardinality("labelIds") > 0 AND "labelSetId" IS NULL
    UNION
    SELECT "customerId", "labelIds" FROM "SupportResponse" WHERE cardinality("labelIds") > 0 AND "labelSetId" IS NULL
  ) labelled
  WHERE NOT EXISTS (SELECT 1 FROM "SupportLabelSet" ls
    WHERE ls."customerId" = labelled."customerId" AND ls."id" = "switchboard_support_label_set_id"(labelled.ids));
UPDATE "SupportPeriod" SET "labelSetId" = "switchboard_support_label_set_id"("labelIds")
  WHERE cardinality("labelIds") > 0 AND "labelSetId" IS NULL;
UPDATE "SupportResponse" SET "labelSetId" = "switchboard_support_label_set_id"("labelIds")
  WHERE cardinality("labelIds") > 0 AND "labelSetId" IS NULL;

-- CreateIndex
CREATE INDEX "SupportPeriod_customerId_resolvedAt_figures_idx" ON "SupportPeriod"("customerId", "resolvedAt", "senderId", "resolutionSeconds", "resolutionBusinessSeconds", "closedBy", "labelSetId");

-- CreateIndex
CREATE INDEX "SupportResponse_customerId_respondedAt_figures_idx" ON "SupportResponse"("customerId", "respondedAt", "first", "senderId", "seconds", "businessSeconds", "responder", "labelSetId");

-- AddForeignKey
ALTER TABLE "SupportLabelSet" ADD CONSTRAINT "SupportLabelSet_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

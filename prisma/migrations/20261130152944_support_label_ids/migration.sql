-- The report by label (docs/reports.md "By label", lib/domains/support/report.ts) counts a
-- support figure in each label its conversation carries now. Joining every period and response
-- of a month to the conversations' labels was most of that report's time at 1M conversations
-- (docs/benchmarks.md "The next limits"): the rows now carry the label ids, and the report
-- unnests them. Triggers keep them whoever writes the labels (the labels API, a rule's action,
-- a label deleted with its rows, the demo seed, a direct SQL write), so they never disagree with
-- ConversationLabel.

-- AlterTable
ALTER TABLE "SupportPeriod" ADD COLUMN     "labelIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "SupportResponse" ADD COLUMN     "labelIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The ids of a conversation's labels, in order (the primary key (conversationId, labelId) reads them).
CREATE FUNCTION "switchboard_conversation_label_ids"(conversation text) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT COALESCE(array_agg("labelId" ORDER BY "labelId"), ARRAY[]::text[])
  FROM "ConversationLabel" WHERE "conversationId" = conversation
$$;

-- A new period takes its conversation's labels; a new response its period's.
CREATE FUNCTION "switchboard_support_period_label_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."labelIds" := "switchboard_conversation_label_ids"(NEW."conversationId");
  RETURN NEW;
END
$$;
CREATE TRIGGER "SupportPeriod_label_ids" BEFORE INSERT ON "SupportPeriod" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_support_period_label_ids"();

CREATE FUNCTION "switchboard_support_response_label_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."labelIds" := COALESCE((SELECT "labelIds" FROM "SupportPeriod" WHERE "id" = NEW."periodId"), ARRAY[]::text[]);
  RETURN NEW;
END
$$;
CREATE TRIGGER "SupportResponse_label_ids" BEFORE INSERT ON "SupportResponse" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_support_response_label_ids"();

-- Labels added or removed: once per statement (a label deleted removes all its rows in one), the
-- periods and responses of each conversation touched take its labels again. `changed` is the
-- statement's transition table: the rows added (INSERT) or removed (DELETE).
CREATE FUNCTION "switchboard_conversation_labels_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SupportPeriod" sp SET "labelIds" = now_carried.ids
    FROM (SELECT touched.id, "switchboard_conversation_label_ids"(touched.id) AS ids
      FROM (SELECT DISTINCT "conversationId" AS id FROM changed) touched) now_carried
    WHERE sp."conversationId" = now_carried.id AND sp."labelIds" IS DISTINCT FROM now_carried.ids;
  UPDATE "SupportResponse" sr SET "labelIds" = sp."labelIds" FROM "SupportPeriod" sp
    WHERE sr."periodId" = sp."id" AND sp."conversationId" IN (SELECT DISTINCT "conversationId" FROM changed)
      AND sr."labelIds" IS DISTINCT FROM sp."labelIds";
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationLabel_added" AFTER INSERT ON "ConversationLabel"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_conversation_labels_changed"();
CREATE TRIGGER "ConversationLabel_removed" AFTER DELETE ON "ConversationLabel"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_conversation_labels_changed"();

-- The periods and responses stored before this migration.
UPDATE "SupportPeriod" SET "labelIds" = "switchboard_conversation_label_ids"("conversationId");
UPDATE "SupportResponse" sr SET "labelIds" = sp."labelIds" FROM "SupportPeriod" sp WHERE sr."periodId" = sp."id";

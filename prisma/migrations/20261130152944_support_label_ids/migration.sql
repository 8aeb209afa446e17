-- The report by label (docs/reports.md "By label", lib/domains/support/report.ts) counts a
-- support figure in each label its conversation carries now. Joining every period and response
-- of a month to the conversations' labels was most of that report's time at 1M conversations
-- (docs/benchmarks.md "The next limits"): the rows now carry the label ids, and the report
-- unnests them. Triggers keep them whoever writes ConversationLabel (the labels API, a rule's
-- action, a label or conversation deleted with its rows, the demo seed, a direct SQL insert,
-- update, delete or truncate), so they never disagree with it. Periods never move to another
-- conversation, nor responses to another period: nothing follows such an update.

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

-- The periods and responses of `conversations` take their labels again.
--
-- The conversations are locked first, in id order, as every writer of a period locks its
-- conversation before the period (an inbound message, a reply, a close, a hand-off). That
-- keeps one lock order, so a label change and an inbound message cannot deadlock. It also
-- makes two label changes of one conversation take turns: at READ COMMITTED each UPDATE below
-- reads the labels as committed when it starts, so the second change, once the first
-- committed, writes both changes, where without the lock it could write only its own. And a
-- period an inbound message opens while a label is taken off is either seen here (it
-- committed first) or reads the labels after this change commits.
CREATE FUNCTION "switchboard_refresh_support_label_ids"(conversations text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "Conversation" WHERE "id" = ANY(conversations) ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "SupportPeriod" sp SET "labelIds" = now_carried.ids
    FROM (SELECT touched.id, "switchboard_conversation_label_ids"(touched.id) AS ids
      FROM unnest(conversations) touched(id)) now_carried
    WHERE sp."conversationId" = now_carried.id AND sp."labelIds" IS DISTINCT FROM now_carried.ids;
  UPDATE "SupportResponse" sr SET "labelIds" = sp."labelIds" FROM "SupportPeriod" sp
    WHERE sr."periodId" = sp."id" AND sp."conversationId" = ANY(conversations)
      AND sr."labelIds" IS DISTINCT FROM sp."labelIds";
END
$$;

-- Labels added or removed: once per statement (a label deleted removes all its rows in one).
-- `changed` is the statement's transition table: the rows added (INSERT) or removed (DELETE).
CREATE FUNCTION "switchboard_conversation_labels_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "switchboard_refresh_support_label_ids"(ARRAY(SELECT DISTINCT "conversationId" FROM changed));
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationLabel_added" AFTER INSERT ON "ConversationLabel"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_conversation_labels_changed"();
CREATE TRIGGER "ConversationLabel_removed" AFTER DELETE ON "ConversationLabel"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_conversation_labels_changed"();

-- A row updated in place (the product never does): the conversations it left and joined.
CREATE FUNCTION "switchboard_conversation_labels_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "switchboard_refresh_support_label_ids"(ARRAY(
    SELECT "conversationId" FROM before_rows UNION SELECT "conversationId" FROM after_rows));
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationLabel_moved" AFTER UPDATE ON "ConversationLabel"
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT
  EXECUTE FUNCTION "switchboard_conversation_labels_moved"();

-- Every label taken off at once.
CREATE FUNCTION "switchboard_conversation_labels_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SupportPeriod" SET "labelIds" = ARRAY[]::text[] WHERE "labelIds" IS DISTINCT FROM ARRAY[]::text[];
  UPDATE "SupportResponse" SET "labelIds" = ARRAY[]::text[] WHERE "labelIds" IS DISTINCT FROM ARRAY[]::text[];
  RETURN NULL;
END
$$;
CREATE TRIGGER "ConversationLabel_truncated" AFTER TRUNCATE ON "ConversationLabel"
  FOR EACH STATEMENT EXECUTE FUNCTION "switchboard_conversation_labels_truncated"();

-- The periods and responses stored before this migration: only those of labelled conversations
-- change (the others keep the column's default), so the rewrite is no larger than it must be.
UPDATE "SupportPeriod" sp SET "labelIds" = "switchboard_conversation_label_ids"(sp."conversationId")
  WHERE EXISTS (SELECT 1 FROM "ConversationLabel" cl WHERE cl."conversationId" = sp."conversationId");
UPDATE "SupportResponse" sr SET "labelIds" = sp."labelIds" FROM "SupportPeriod" sp
  WHERE sr."periodId" = sp."id" AND sp."labelIds" <> ARRAY[]::text[];

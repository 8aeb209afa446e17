-- The broadcast dispatcher sleeps while nothing is sending (docs/broadcasts.md "How it sends"):
-- every change of a broadcast's state, start time or resume time notifies the
-- `switchboard_broadcasts` channel in the writing transaction, whoever writes it (a start, a
-- schedule, a pause or resume, a cancel, retry-failed, the operator CLI, another instance), so
-- the dispatcher wakes for a start or resume at once and sets its timer for the next scheduled
-- start again. PostgreSQL folds identical notifications of one transaction into one.
CREATE FUNCTION "switchboard_broadcasts_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_broadcasts', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "Broadcast_wakeup_insert" AFTER INSERT ON "Broadcast" FOR EACH ROW
  WHEN (NEW."status" <> 'DRAFT')
  EXECUTE FUNCTION "switchboard_broadcasts_changed"();
CREATE TRIGGER "Broadcast_wakeup_update" AFTER UPDATE OF "status", "scheduledAt", "resumesAt" ON "Broadcast" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."scheduledAt" IS DISTINCT FROM NEW."scheduledAt"
        OR OLD."resumesAt" IS DISTINCT FROM NEW."resumesAt")
  EXECUTE FUNCTION "switchboard_broadcasts_changed"();

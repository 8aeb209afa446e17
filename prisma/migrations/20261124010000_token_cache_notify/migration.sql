-- Verified-token cache invalidation (docs/tokens.md "Verified-token cache", lib/tokens/token-cache.ts):
-- every change to a row that verifyToken reads notifies the `switchboard_tokens` channel in the
-- writing transaction, whoever writes it (a service, the operator CLI, another API instance, a
-- direct SQL update). The payload is the table's name, so a bulk change in one transaction sends
-- one notification per table (PostgreSQL folds identical ones).
CREATE FUNCTION "switchboard_tokens_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_tokens', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

-- Any column but lastUsedAt (written at most once a minute per token by verifyToken itself).
CREATE TRIGGER "ApiToken_tokens_changed_update" AFTER UPDATE ON "ApiToken" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'lastUsedAt') IS DISTINCT FROM (to_jsonb(NEW) - 'lastUsedAt'))
  EXECUTE FUNCTION "switchboard_tokens_changed"();
CREATE TRIGGER "ApiToken_tokens_changed_delete" AFTER DELETE ON "ApiToken" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_tokens_changed"();
CREATE TRIGGER "ApiToken_tokens_changed_truncate" AFTER TRUNCATE ON "ApiToken" FOR EACH STATEMENT
  EXECUTE FUNCTION "switchboard_tokens_changed"();

-- The columns verifyToken reads (the join key, status, plan).
CREATE TRIGGER "Customer_tokens_changed_update" AFTER UPDATE OF "id", "status", "plan" ON "Customer" FOR EACH ROW
  WHEN (OLD."id" IS DISTINCT FROM NEW."id" OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."plan" IS DISTINCT FROM NEW."plan")
  EXECUTE FUNCTION "switchboard_tokens_changed"();
CREATE TRIGGER "Customer_tokens_changed_delete" AFTER DELETE ON "Customer" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_tokens_changed"();
CREATE TRIGGER "Customer_tokens_changed_truncate" AFTER TRUNCATE ON "Customer" FOR EACH STATEMENT
  EXECUTE FUNCTION "switchboard_tokens_changed"();

-- Live streams end at once when their member's access changes (docs/inbox.md "Live updates",
-- lib/domains/live/hub.ts): a session ended, a member removed, a role, sender list or
-- 2FA state changed, an account suspended or its plan changed. Each such write notifies the
-- live channel in the writing transaction, whoever writes it (a service, the operator CLI,
-- another instance, a direct SQL update), with {"c": customer, "member": user} (null: every
-- member of the account); every process then reads the streams' sessions of that member
-- again. Identical payloads of one transaction are folded by PostgreSQL (one per member).
CREATE FUNCTION "switchboard_live_access_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
  IF TG_TABLE_NAME = 'Customer' THEN
    PERFORM pg_notify('switchboard_live', json_build_object('c', r->>'id', 'member', NULL)::text);
  ELSIF TG_TABLE_NAME = 'User' THEN
    PERFORM pg_notify('switchboard_live', json_build_object('c', r->>'customerId', 'member', r->>'id')::text);
  ELSE
    PERFORM pg_notify('switchboard_live', json_build_object('c', r->>'customerId', 'member', r->>'userId')::text);
  END IF;
  RETURN NULL;
END
$$;

-- A session ended (sign-out, ended from another device or by an admin, a password reset or change).
CREATE TRIGGER "UserSession_live_access_ended" AFTER UPDATE OF "endedAt" ON "UserSession" FOR EACH ROW
  WHEN (OLD."endedAt" IS NULL AND NEW."endedAt" IS NOT NULL)
  EXECUTE FUNCTION "switchboard_live_access_changed"();

-- What the session's principal reads of the member (lib/domains/auth/session-principal.ts).
CREATE TRIGGER "User_live_access_changed" AFTER UPDATE OF "role", "sendersLimited", "customerId", "totpEnabledAt" ON "User" FOR EACH ROW
  WHEN (OLD."role" IS DISTINCT FROM NEW."role" OR OLD."sendersLimited" IS DISTINCT FROM NEW."sendersLimited"
    OR OLD."customerId" IS DISTINCT FROM NEW."customerId" OR OLD."totpEnabledAt" IS DISTINCT FROM NEW."totpEnabledAt")
  EXECUTE FUNCTION "switchboard_live_access_changed"();
CREATE TRIGGER "User_live_access_removed" AFTER DELETE ON "User" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_live_access_changed"();

-- An agent's senders.
CREATE TRIGGER "MemberSender_live_access_changed" AFTER INSERT OR UPDATE OR DELETE ON "MemberSender" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_live_access_changed"();

-- The account: suspended or reactivated, its plan, two-factor required.
CREATE TRIGGER "Customer_live_access_changed" AFTER UPDATE OF "status", "plan", "require2fa" ON "Customer" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."plan" IS DISTINCT FROM NEW."plan"
    OR OLD."require2fa" IS DISTINCT FROM NEW."require2fa")
  EXECUTE FUNCTION "switchboard_live_access_changed"();

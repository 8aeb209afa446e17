// Spent credentials are deleted by the background worker's hourly pass (lib/background.ts;
// docs/security.md "What is kept"): their rows hold only hashes, but a table of every session
// and link ever made grows without end and serves nobody. Kept long enough to explain a
// refusal and for the members page's expired invitations:
// - sessions ended or expired 30 days ago (the account page lists only live ones), but the
//   newest of each member's device labels stays: the new-device notice asks whether the
//   member ever signed in from that device (lib/domains/security/sessions.ts);
// - password reset links used or expired a day ago (an old link is refused either way);
// - invitations accepted, revoked or expired 30 days ago.
import { log } from "@/lib/core/log";
import { IDLE, type WorkerDefinition } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";

const DAY_MS = 86_400_000;
export const SPENT_SESSION_DAYS = 30;
export const SPENT_RESET_DAYS = 1;
export const SPENT_INVITATION_DAYS = 30;

const before = (now: Date, days: number) => ({ lt: new Date(now.getTime() - days * DAY_MS) });

/** Deletes the spent sessions, reset links and invitations; how many rows went. */
export async function pruneSpentCredentials(now = new Date()): Promise<number> {
  const session = before(now, SPENT_SESSION_DAYS);
  const reset = before(now, SPENT_RESET_DAYS);
  const invitation = before(now, SPENT_INVITATION_DAYS);
  const [sessions, resets, invitations] = await Promise.all([
    db.$executeRawUnsafe(
      `DELETE FROM "UserSession" s
        WHERE (s."endedAt" < ($1::timestamptz AT TIME ZONE 'UTC') OR s."expiresAt" < ($1::timestamptz AT TIME ZONE 'UTC'))
          AND EXISTS (SELECT 1 FROM "UserSession" n
                       WHERE n."userId" = s."userId" AND n.device = s.device AND n."createdAt" > s."createdAt")`,
      session.lt.toISOString(),
    ),
    db.passwordReset.deleteMany({ where: { OR: [{ usedAt: reset }, { expiresAt: reset }] } }),
    db.invitation.deleteMany({
      where: { OR: [{ acceptedAt: invitation }, { revokedAt: invitation }, { expiresAt: invitation }] },
    }),
  ]);
  return sessions + resets.count + invitations.count;
}

/** The hourly pass of the background worker (lib/background.ts): at start, then every `intervalMs`. */
export function credentialPruning(intervalMs = 3_600_000): WorkerDefinition {
  return {
    name: "spent credentials pruning",
    pollMs: intervalMs,
    pass: async () => {
      const count = await pruneSpentCredentials();
      if (count > 0) log.info({ count }, "spent credentials pruning: rows past retention deleted");
      return IDLE;
    },
  };
}

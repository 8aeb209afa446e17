// A dashboard session's ids -> the same Principal an API token resolves to (the Next.js
// side that reads the session is lib/dashboard/session.ts). The member (role, senders) is
// read here on every request, not kept in the session's JWT: a change of role or a removal
// applies to that member's next request (docs/members.md "Sessions and changes"). The
// JWT's session id is checked against its UserSession row in the same read: an ended
// session (signed out, ended from another device or by an admin, a password reset) is
// refused on its next request (docs/security.md "Sessions").
import { hotRows } from "@/lib/db";
import { isRole, SENDER_LIMITED_ROLES } from "@/lib/domains/auth/permissions";
import type { Plan, Principal } from "@/lib/domains/auth/principal";
import { Prisma } from "@/lib/generated/prisma/client";
import { touchSession } from "./sessions";

export type SessionIds = { userId?: string; customerId?: string; sessionId?: string };

type MemberRow = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  sendersLimited: boolean;
  customerId: string;
  plan: Plan;
  status: string;
  senderIds: string[];
  setupRequired: boolean;
  lastSeenAt: Date;
};

// One indexed read per request (the user and its session by primary key, its customer, its
// senders): about a millisecond, and nothing to invalidate.
const memberSql = (userId: string, customerId: string, sessionId: string) =>
  Prisma.sql`SELECT u."id", u."email", u."name", u."role"::text AS "role", u."sendersLimited",
      c."id" AS "customerId", c."plan"::text AS "plan", c."status"::text AS "status",
      (c."require2fa" AND u."totpEnabledAt" IS NULL) AS "setupRequired",
      s."lastSeenAt",
      ARRAY(SELECT ms."senderId" FROM "MemberSender" ms
        WHERE ms."userId" = u."id" AND ms."customerId" = u."customerId" ORDER BY ms."senderId") AS "senderIds"
    FROM "User" u JOIN "Customer" c ON c."id" = u."customerId"
      JOIN "UserSession" s ON s."id" = ${sessionId} AND s."userId" = u."id"
        AND s."endedAt" IS NULL AND s."expiresAt" > now()
    WHERE u."id" = ${userId} AND u."customerId" = ${customerId}`;

/**
 * null when the session names no user or no session (a JWT issued before sessions were
 * recorded), the session was ended or expired, the user was removed or the customer is
 * suspended. `ip`: the caller's address, recorded as the session's last seen.
 */
export async function principalForSession(
  session: SessionIds | null,
  ip: string | null = null,
): Promise<Principal | null> {
  if (!session?.userId || !session.customerId || !session.sessionId) return null;
  const [row] = await hotRows<MemberRow>(memberSql(session.userId, session.customerId, session.sessionId));
  if (row?.status !== "ACTIVE" || !isRole(row.role)) return null;
  if (Date.now() - new Date(row.lastSeenAt).getTime() > 60_000) void touchSession(session.sessionId, ip);
  return {
    customerId: row.customerId,
    plan: row.plan,
    via: "session",
    userId: row.id,
    scopedSenderId: null,
    sessionId: session.sessionId,
    twoFactorSetupRequired: row.setupRequired,
    member: {
      userId: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      // Only an agent is ever limited (a role change clears the flag too, members/service.ts).
      senderIds: row.sendersLimited && SENDER_LIMITED_ROLES.includes(row.role) ? row.senderIds : null,
    },
  };
}

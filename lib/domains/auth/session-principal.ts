// A dashboard session's ids -> the same Principal an API token resolves to (the Next.js
// side that reads the session is lib/dashboard/session.ts). The member (role, senders) is
// read here on every request, not kept in the session's JWT: a change of role or a removal
// applies to that member's next request (docs/members.md "Sessions and changes").
import { hotRows } from "@/lib/db";
import { isRole, SENDER_LIMITED_ROLES } from "@/lib/domains/members/permissions";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Plan, Principal } from "./principal";

export type SessionIds = { userId?: string; customerId?: string };

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
};

// One indexed read per request (the user by primary key, its customer, its senders): about
// a millisecond, and nothing to invalidate.
const memberSql = (userId: string, customerId: string) =>
  Prisma.sql`SELECT u."id", u."email", u."name", u."role"::text AS "role", u."sendersLimited",
      c."id" AS "customerId", c."plan"::text AS "plan", c."status"::text AS "status",
      ARRAY(SELECT ms."senderId" FROM "MemberSender" ms
        WHERE ms."userId" = u."id" AND ms."customerId" = u."customerId" ORDER BY ms."senderId") AS "senderIds"
    FROM "User" u JOIN "Customer" c ON c."id" = u."customerId"
    WHERE u."id" = ${userId} AND u."customerId" = ${customerId}`;

/** null when the session names no user, the user was removed or the customer is suspended. */
export async function principalForSession(session: SessionIds | null): Promise<Principal | null> {
  if (!session?.userId || !session.customerId) return null;
  const [row] = await hotRows<MemberRow>(memberSql(session.userId, session.customerId));
  if (row?.status !== "ACTIVE" || !isRole(row.role)) return null;
  return {
    customerId: row.customerId,
    plan: row.plan,
    via: "session",
    userId: row.id,
    scopedSenderId: null,
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

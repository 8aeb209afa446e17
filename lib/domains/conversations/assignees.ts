// The inbox's assignee picker: who a conversation can be given to (the same rule as
// assignment.ts's assigneeFor, listed): members whose role has the inbox, agents only when
// they may see the conversation's sender.
import { db } from "@/lib/db";
import { PERMISSIONS } from "@/lib/domains/auth/permissions";
import type { Principal } from "@/lib/domains/auth/principal";
import { getConversation } from "./service";

/** The members a conversation in the principal's scope can be assigned to (the inbox's picker). */
export async function assignableMembers(p: Principal, uid: string): Promise<{ email: string; name: string | null }[]> {
  const c = await getConversation(p, undefined, uid);
  const rows = await db.user.findMany({
    where: {
      customerId: p.customerId,
      role: { in: PERMISSIONS.inbox.filter((r) => r !== "agent") },
    },
    select: { email: true, name: true },
  });
  const agents = await db.user.findMany({
    where: {
      customerId: p.customerId,
      role: "agent",
      OR: [{ sendersLimited: false }, { senders: { some: { senderId: c.senderId } } }],
    },
    select: { email: true, name: true },
  });
  return [...rows, ...agents].sort((a, b) => a.email.localeCompare(b.email));
}

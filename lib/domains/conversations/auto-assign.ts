// Auto-assignment (docs/inbox.md "Assignment"): a sender with autoAssign on hands each
// unassigned conversation that receives an inbound message to the next of its online agents,
// round-robin, skipping an agent who already holds autoAssignCap OPEN conversations. Runs in
// the inbound transaction (conversations/inbound.ts); the sender row is locked so that two
// instances never hand out the same turn twice.
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import type { EventInput, EventSender } from "@/lib/domains/events/emit";
import { Prisma } from "@/lib/generated/prisma/client";
import { assignedEvent } from "./events";
import type { AutoAssignValue } from "./inbox-settings-schemas";

/**
 * An agent is online while a dashboard tab of theirs polls (the navigation's unread badge
 * every few seconds, lib/dashboard: touchPresence): seen within this window.
 */
export const ONLINE_WINDOW_MS = 60_000;
/** A member's lastSeenAt is written at most this often. */
const PRESENCE_WRITE_MS = 15_000;

/** Marks the member as seen now (online), at most one write per PRESENCE_WRITE_MS. */
export async function touchPresence(p: Principal, now = new Date()): Promise<void> {
  if (!p.member) return;
  const stale = new Date(now.getTime() - PRESENCE_WRITE_MS);
  await db.user.updateMany({
    where: { id: p.member.userId, customerId: p.customerId, OR: [{ lastSeenAt: null }, { lastSeenAt: { lt: stale } }] },
    data: { lastSeenAt: now },
  });
}

export type Unassigned = {
  id: string;
  contactPhoneNumber: string;
  contactName: string | null;
  sender: EventSender;
};

type Candidate = { id: string; email: string; name: string | null; open: number };

/** Agents of the sender (all senders, or limited to include it), online, with their OPEN count. */
const candidatesSql = (customerId: string, senderId: string, since: Date) =>
  Prisma.sql`SELECT u."id", u."email", u."name",
      (SELECT count(*)::int FROM "Conversation" c WHERE c."assigneeId" = u."id" AND c."status" = 'OPEN') AS "open"
    FROM "User" u
    WHERE u."customerId" = ${customerId} AND u."role" = 'agent' AND u."lastSeenAt" >= ${since}
      AND (u."sendersLimited" = false OR EXISTS (SELECT 1 FROM "MemberSender" ms
        WHERE ms."userId" = u."id" AND ms."senderId" = ${senderId}))
    ORDER BY u."id"`;

/** The round-robin's pick: the first agent after `last` (wrapping) below the cap, else null. */
export function nextAgent<T extends { id: string; open: number }>(
  agents: T[],
  last: string | null,
  cap: number,
): T | null {
  const start = last === null ? 0 : agents.findIndex((a) => a.id > last);
  const from = Math.max(start, 0);
  for (let i = 0; i < agents.length; i++) {
    const a = agents[(from + i) % agents.length];
    if (a.open < cap) return a;
  }
  return null;
}

/** Assigns what it can of `conversations` (all unassigned); returns their conversation.assigned events. */
export async function autoAssign(tx: Tx, conversations: Unassigned[], now = new Date()): Promise<EventInput[]> {
  const events: EventInput[] = [];
  const bySender = new Map<string, Unassigned[]>();
  for (const c of conversations) bySender.set(c.sender.id, [...(bySender.get(c.sender.id) ?? []), c]);
  for (const [senderId, list] of bySender) {
    const [sender] = await tx.$queryRaw<
      { autoAssign: boolean; autoAssignCap: number; autoAssignLastUserId: string | null }[]
    >`
      SELECT "autoAssign", "autoAssignCap", "autoAssignLastUserId" FROM "Sender" WHERE "id" = ${senderId} FOR UPDATE`;
    if (!sender?.autoAssign) continue;
    const agents = await tx.$queryRaw<Candidate[]>(
      candidatesSql(list[0].sender.customerId, senderId, new Date(now.getTime() - ONLINE_WINDOW_MS)),
    );
    let last = sender.autoAssignLastUserId;
    for (const c of list) {
      const agent = nextAgent(agents, last, sender.autoAssignCap);
      if (!agent) break;
      const { count } = await tx.conversation.updateMany({
        where: { id: c.id, assigneeId: null },
        data: { assigneeId: agent.id },
      });
      if (count === 0) continue;
      agent.open += 1;
      last = agent.id;
      events.push(assignedEvent(c.sender, c, { email: agent.email, name: agent.name }, null, now));
    }
    if (last !== sender.autoAssignLastUserId) {
      await tx.sender.update({ where: { id: senderId }, data: { autoAssignLastUserId: last } });
    }
  }
  return events;
}

export type AutoAssignSetting = { senderId: string; phoneNumber: string; autoAssign: boolean; cap: number };

/** Each sender's auto-assignment setting (the inbox settings page). */
export async function autoAssignSettings(p: Principal): Promise<AutoAssignSetting[]> {
  assertPermission(p, "inbox.settings");
  const rows = await db.sender.findMany({
    where: { customerId: p.customerId },
    select: { id: true, phoneNumber: true, autoAssign: true, autoAssignCap: true },
    orderBy: { phoneNumber: "asc" },
  });
  return rows.map((r) => ({
    senderId: r.id,
    phoneNumber: r.phoneNumber,
    autoAssign: r.autoAssign,
    cap: r.autoAssignCap,
  }));
}

/** Turns a sender's auto-assignment on or off and sets its cap of OPEN conversations per agent. */
export async function setAutoAssign(p: Principal, input: AutoAssignValue): Promise<void> {
  assertPermission(p, "inbox.settings");
  const { count } = await db.sender.updateMany({
    where: { customerId: p.customerId, phoneNumber: input.sender },
    data: { autoAssign: input.autoAssign, autoAssignCap: input.cap },
  });
  if (count === 0) throw new ApiError("SENDER_NOT_FOUND", `Sender ${input.sender} not found for this account`);
}

// Who handles a conversation (docs/inbox.md "Assignment"): assign and unassign (the API's
// `assignee`, the inbox's buttons), the first reply of a member taking an unassigned
// conversation, and the per-sender round-robin among online agents for new inbound
// conversations. Every change emits conversation.assigned in its own transaction.
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { roleHas } from "@/lib/domains/auth/permissions";
import type { Principal } from "@/lib/domains/auth/principal";
import type { EventInput, EventSender } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { memberByEmail } from "@/lib/domains/members/service";
import { assignedEvent, emitConversationEvents } from "./events";

export type Assignee = { userId: string; email: string; name: string | null };

const notAssignable = (email: string, why: string) => {
  const message = `${email} ${why}`;
  return new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "conversation.assignee", message }] });
};

/**
 * The member `email` names, when they may handle a conversation of `senderId`: a member of
 * the account whose role holds the inbox, and (an agent limited to some senders) that sender.
 * Anything else is VALIDATION_FAILED.
 */
export async function assigneeFor(tx: Tx, customerId: string, senderId: string, email: string): Promise<Assignee> {
  const member = await memberByEmail(customerId, email, tx);
  if (!member) throw notAssignable(email, "is not a member of this account");
  if (!roleHas(member.role, "inbox")) throw notAssignable(email, `is a ${member.role}: that role has no inbox`);
  if (member.senderIds && !member.senderIds.includes(senderId)) {
    throw notAssignable(email, "is an agent without this conversation's sender");
  }
  return { userId: member.userId, email: member.email, name: member.name };
}

type Target = {
  id: string;
  assigneeId: string | null;
  contactPhoneNumber: string;
  contactName: string | null;
  sender: EventSender;
};

/**
 * Sets the conversation's assignee inside `tx` (the row is the caller's, already in scope)
 * and returns the conversation.assigned event, or null when nothing changed.
 */
export async function setAssignee(
  tx: Tx,
  c: Target,
  assignee: Assignee | null,
  by: string | null,
  onlyIfUnassigned = false,
): Promise<EventInput | null> {
  const next = assignee?.userId ?? null;
  if (c.assigneeId === next) return null;
  const { count } = await tx.conversation.updateMany({
    where: { id: c.id, customerId: c.sender.customerId, ...(onlyIfUnassigned ? { assigneeId: null } : {}) },
    data: { assigneeId: next },
  });
  if (count === 0) return null;
  return assignedEvent(c.sender, c, assignee && { email: assignee.email, name: assignee.name }, by, new Date());
}

/** Who did it, as the event's assignedBy names them: the member's email or the token's name. */
export async function actorLabel(p: Principal): Promise<string | null> {
  if (p.member) return p.member.email;
  if (!p.tokenId) return null;
  const token = await db.apiToken.findFirst({ where: { id: p.tokenId }, select: { name: true } });
  return token?.name ?? null;
}

/**
 * A member replied: an unassigned conversation becomes theirs (never taken from another
 * assignee). API tokens are no members and assign nothing.
 */
export async function assignOnReply(p: Principal, conversationId: string): Promise<void> {
  const member = p.member;
  if (!member) return;
  const emitted = await db.$transaction(async (tx) => {
    const c = await tx.conversation.findFirst({
      where: { id: conversationId, customerId: p.customerId, assigneeId: null },
      include: { sender: true },
    });
    if (!c) return 0;
    const event = await setAssignee(tx, c, member, member.email, true);
    return event ? emitConversationEvents(tx, [event]) : 0;
  });
  if (emitted > 0) deliveriesQueued();
}

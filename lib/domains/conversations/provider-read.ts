// Read receipts and the typing indicator at the provider (docs/inbox.md "Read receipts and
// typing"): opening an unread conversation marks its newest inbound message read there (the
// provider marks the earlier ones with it), and typing a reply shows the contact the typing
// indicator, at most once per 20 s per conversation. Both are claimed with a conditional
// update of the conversation row before the provider is called, so several instances (or
// tabs) never send the same read twice nor the indicator more than once per 20 s.

import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { getProvider } from "@/lib/domains/provider/client";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import { senderScope } from "./list-sql";
import { conversationNotFound, isConversationUid } from "./service";

/** The provider shows the indicator for up to 25 s; one call per 20 s keeps it on while typing goes on. */
export const TYPING_INTERVAL_MS = 20_000;

export type TypingOutcome = "shown" | "throttled" | "answered" | "window_closed" | "receipts_off" | "refused";
export type ReadReceiptOutcome = "sent" | "none_due" | "receipts_off" | "refused";

/** The conversation, in the tenant and the principal's senders, with its sender; NOT_FOUND otherwise. */
async function scopedConversation(p: Principal, uid: string) {
  if (p.member) assertPermission(p, "inbox");
  if (!isConversationUid(uid)) throw conversationNotFound(uid);
  const scope = senderScope(p, undefined);
  const c = await db.conversation.findFirst({
    where: { id: uid, customerId: p.customerId, ...(scope ? { senderId: { in: [...scope] } } : {}) },
    select: {
      id: true,
      windowExpiresAt: true,
      providerReadAt: true,
      sender: true,
      customer: { select: { readReceipts: true } },
    },
  });
  if (!c) throw conversationNotFound(uid);
  return c;
}

/** The conversation's newest message the contact or we sent (notes and system lines aside). */
const newestMessage = (conversationId: string, direction?: "inbound") =>
  db.conversationMessage.findFirst({
    where: { conversationId, direction: direction ?? { in: ["inbound", "outbound"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { direction: true, providerMessageId: true, createdAt: true },
  });

/** Puts a claim back when the provider refused, so a later open or keystroke tries again. */
async function releaseClaim(
  id: string,
  field: "typingShownAt" | "providerReadAt",
  claimed: Date,
  previous: Date | null,
) {
  await db.conversation.updateMany({ where: { id, [field]: claimed }, data: { [field]: previous } });
}

/**
 * An agent types in the thread: the contact sees the typing indicator (with the newest inbound
 * message marked read, as the provider shows it) when that message still waits for our answer,
 * the window is open and the account sends read receipts; at most once per 20 s.
 */
export async function showTyping(p: Principal, uid: string, now = new Date()): Promise<TypingOutcome> {
  const c = await scopedConversation(p, uid);
  if (!c.customer.readReceipts) return "receipts_off";
  if (!c.windowExpiresAt || c.windowExpiresAt <= now) return "window_closed";
  const last = await newestMessage(c.id);
  if (last?.direction !== "inbound" || !last.providerMessageId) return "answered";
  const { count } = await db.conversation.updateMany({
    where: {
      id: c.id,
      customerId: p.customerId,
      OR: [{ typingShownAt: null }, { typingShownAt: { lte: new Date(now.getTime() - TYPING_INTERVAL_MS) } }],
    },
    data: { typingShownAt: now },
  });
  if (count === 0) return "throttled";
  const outcome = await getProvider().markRead(providerSender(c.sender), last.providerMessageId, { typing: true });
  if (!outcome.ok) {
    log.warn({ conversation: c.id, code: outcome.code }, "provider refused the typing indicator");
    await releaseClaim(c.id, "typingShownAt", now, null);
    return "refused";
  }
  await advanceProviderRead(c.id, last.createdAt);
  return "shown";
}

/** Records that inbound messages up to `through` are read at the provider (never moves back). */
async function advanceProviderRead(id: string, through: Date) {
  await db.conversation.updateMany({
    where: { id, OR: [{ providerReadAt: null }, { providerReadAt: { lt: through } }] },
    data: { providerReadAt: through },
  });
}

/**
 * The conversation was opened with unread messages: its newest inbound message is marked read
 * at the provider, once, unless the account turned read receipts off. A refusal is logged and
 * never fails the open.
 */
export async function sendReadReceipt(p: Principal, uid: string): Promise<ReadReceiptOutcome> {
  const c = await scopedConversation(p, uid);
  if (!c.customer.readReceipts) return "receipts_off";
  const last = await newestMessage(c.id, "inbound");
  if (!last?.providerMessageId || (c.providerReadAt && c.providerReadAt >= last.createdAt)) return "none_due";
  const { count } = await db.conversation.updateMany({
    where: {
      id: c.id,
      customerId: p.customerId,
      OR: [{ providerReadAt: null }, { providerReadAt: { lt: last.createdAt } }],
    },
    data: { providerReadAt: last.createdAt },
  });
  if (count === 0) return "none_due";
  const outcome = await getProvider().markRead(providerSender(c.sender), last.providerMessageId);
  if (!outcome.ok) {
    log.warn({ conversation: c.id, code: outcome.code }, "provider refused the read receipt");
    await releaseClaim(c.id, "providerReadAt", last.createdAt, c.providerReadAt);
    return "refused";
  }
  return "sent";
}

/**
 * The provider-shaped mark-as-read of one inbound message (docs/messaging.md "Provider SDKs"),
 * forwarded as asked, with the typing indicator when the body carried `typing_indicator`;
 * the integrator asked for it, so the account's read-receipt setting does not apply. The
 * provider's refusal is the caller's error (PROVIDER_REJECTED with its code, or
 * PROVIDER_UNAVAILABLE when it did not answer).
 */
export async function forwardProviderRead(
  p: Principal,
  conversationId: string,
  message: { providerMessageId: string; createdAt: Date },
  typing: boolean,
): Promise<void> {
  const c = await db.conversation.findFirst({
    where: { id: conversationId, customerId: p.customerId },
    select: { id: true, sender: true },
  });
  if (!c) throw conversationNotFound(conversationId);
  const outcome = await getProvider().markRead(providerSender(c.sender), message.providerMessageId, { typing });
  if (!outcome.ok) {
    if (outcome.ambiguous || outcome.retryable || outcome.code === 0)
      throw new ApiError("PROVIDER_UNAVAILABLE", "The provider did not take the mark-as-read; try again");
    throw new ApiError("PROVIDER_REJECTED", `The provider refused the mark-as-read: ${outcome.message}`, {
      providerCode: outcome.code,
    });
  }
  await advanceProviderRead(c.id, message.createdAt);
  if (typing) await db.conversation.update({ where: { id: c.id }, data: { typingShownAt: new Date() } });
}

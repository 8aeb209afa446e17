// The send pipeline (docs/messaging.md "The send pipeline"). Every send, whatever its path
// (/send, /chat, /messages, /{phoneNumberId}/messages, orders, conversation replies, the
// dashboard's composer and inbox, chatbot replies; the reconnect queue for its dispatch), runs
// the same three stages, and each step belongs to the domain whose rule it is:
//   checks    send-checks.ts: sender connection; template (lib/domains/templates), blacklist
//             (lib/domains/contacts), window (lib/domains/conversations), balance
//             (lib/domains/billing); one round trip per check for a whole batch;
//   record    message-store.ts: the Message row ("sending", or "queued" while the sender is
//             RECONNECTING) and its conversation thread entry (lib/domains/conversations/outbound.ts)
//             in one statement, BEFORE the provider call: a row that cannot be written stops the
//             send before anything left;
//   dispatch  dispatch.ts: the provider call, its outcome on the row, message.status.accepted.
// No step imports messaging (.dependency-cruiser.cjs "send-steps-below-messaging"): the flow
// goes one way, down. Returns an acceptance receipt, not a delivery receipt.
import { db } from "@/lib/db";
import { notifyStatement } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import { dashboardSentBy } from "@/lib/domains/conversations/inbox";
import { SENDING } from "@/lib/domains/messages/rows";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import { countOtherSend } from "@/lib/domains/senders/rate-bucket";
import type { Sender } from "@/lib/domains/senders/service";
import type { Message } from "@/lib/generated/prisma/client";
import { type DispatchOptions, dispatchRecorded } from "./dispatch";
import { insertMessage, type NewMessage } from "./message-store";
import { newMessageUid, type OutgoingMessage, type SendResult } from "./outgoing";
import { resumedSend } from "./resumed-send";
import { type CheckedSend, checkSends } from "./send-checks";

/**
 * One send: its checks (a refusal is thrown), then its record and dispatch. A retry of an
 * Idempotency-Key whose first run recorded its message is answered from it (resumed-send.ts).
 */
export async function sendMessage(p: Principal, sender: Sender, out: OutgoingMessage): Promise<SendResult> {
  const earlier = await resumedSend(p);
  if (earlier) return earlier;
  const [verdict] = await checkSends(p, sender, [out]);
  if (!verdict.ok) throw verdict.refusal;
  return sendChecked(p, sender, verdict.send);
}

/**
 * Records and dispatches a send that passed its checks (checkSends): a batch checks all its
 * sends at once, then sends each one that passed through here.
 */
export async function sendChecked(
  p: Principal,
  sender: Sender,
  send: CheckedSend,
  options: DispatchOptions = {},
): Promise<SendResult> {
  // Every other send of the sender takes the sender's next send slot: broadcasts then leave it room
  // (lib/domains/senders/rate-bucket.ts, docs/broadcasts.md "Throughput").
  if (!send.out.broadcastId) await countOtherSend(sender);
  const row = await recordSend(p, sender, send, options);
  if (row.queued) {
    // The row is committed: a drainer elsewhere wakes in case the sender reconnected meanwhile.
    await db.$executeRaw(notifyStatement("reconnect"));
    return { message: row, queued: true, template: send.template };
  }
  const message = await dispatchRecorded(row, providerSender(sender), options);
  return { message, queued: false, template: send.template };
}

async function recordSend(p: Principal, sender: Sender, send: CheckedSend, batch: DispatchOptions): Promise<Message> {
  const { out } = send;
  return insertMessage(newMessageOf(p, sender, send), {
    sender,
    // A member's send from any dashboard form (the inbox, the message log's composer) is theirs,
    // by email: the support figures credit its reply to them (docs/reports.md "By member").
    sentBy: out.sentBy ?? (p.via === "session" ? await dashboardSentBy(p) : { by: "api" }),
    ...(out.replyTo ? { replyTo: out.replyTo } : {}),
    ...(batch.live ? { live: batch.live } : {}),
    ...(batch.created ? { created: batch.created } : {}),
  });
}

/** The message row a checked send records: "sending", or "queued" while the sender is RECONNECTING. */
export function newMessageOf(p: Principal, sender: Sender, send: CheckedSend): NewMessage {
  const { out, template, pricingCategory, payload } = send;
  const queued = sender.connectionStatus === "RECONNECTING";
  return {
    id: out.messageId ?? newMessageUid(),
    customerId: p.customerId,
    senderId: sender.id,
    recipient: out.recipient,
    type: out.directSend ? "text" : out.payload.type,
    templateName: template?.name ?? null,
    templateLanguage: template?.language ?? null,
    pricingCategory,
    sendRoute: out.sendRoute,
    directSendCategory: out.directSend?.category ?? null,
    directSendTemplateName: out.directSend ? (template?.name ?? null) : null,
    ttlSeconds: out.directSend?.ttlSeconds ?? null,
    metaTemplateId: template?.providerTemplateId ?? null,
    broadcastId: out.broadcastId ?? null,
    payload,
    mediaId: send.media?.mediaId ?? null,
    ...(queued ? { status: "queued", queued: true } : { status: SENDING, queued: false }),
  };
}

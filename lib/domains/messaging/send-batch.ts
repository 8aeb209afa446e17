// A batch of checked sends from one sender, one message per contact (a broadcast's batch,
// docs/broadcasts.md "How it sends"): their Message rows ("sending") and conversation entries
// are written in one statement BEFORE any of their provider calls (the send pipeline's rule,
// docs/messaging.md "Write, call, complete", for the batch), the calls are made without a
// statement each (dispatch.ts callRecorded), and their outcomes are written in one statement
// after (message-store.ts completeMessages). Plain pg, not the ORM: Prisma's per-statement
// CPU costs more than the statements (lib/db/pool.ts hotRows); a per-message INSERT and UPDATE
// were most of a broadcast's statements and of their time (docs/benchmarks.md "Broadcasts").
import { hotRows } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { type CreatedConversation, outboundThreadsSql, type ThreadOutcome } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { deleteUncalled, insertMessagesCte, SENDING } from "@/lib/domains/messages/rows";
import type { Sender } from "@/lib/domains/senders/service";
import { type Message, Prisma } from "@/lib/generated/prisma/client";
import { messageRow } from "./message-store";
import { newMessageOf } from "./send";
import type { CheckedSend } from "./send-checks";

/** A send of the batch as recorded: its row, and the conversation it joined. */
export type RecordedSend = { message: Message; conversation: ThreadOutcome };

/**
 * Records a batch of checked sends of a connected sender, one message per contact, all sent by
 * the first's hand (sentBy): the sends recorded, by message id. A send whose message id is
 * already taken is left out (it records nothing and must not be called).
 */
export async function recordSends(
  p: Principal,
  sender: Sender,
  sends: CheckedSend[],
): Promise<Map<string, RecordedSend>> {
  if (sends.length === 0) return new Map();
  if (sender.connectionStatus === "RECONNECTING") throw new Error("a batch is recorded for a connected sender");
  const now = new Date();
  const at = now.toISOString();
  const rows = sends.map((s) => messageRow(newMessageOf(p, sender, s), now));
  // One conversation upsert per contact: two rows of one contact in one statement would conflict.
  if (new Set(rows.map((r) => r.recipient)).size < rows.length)
    throw new Error("a batch sends one message per contact");
  const first = sends[0]?.out.sentBy;
  const threads = outboundThreadsSql({
    customerId: p.customerId,
    senderId: sender.id,
    sentBy: first ?? { by: p.via === "session" ? "dashboard" : "api" },
    at,
    threads: rows.map((r) => ({
      messageId: r.id,
      recipient: r.recipient,
      payload: r.payload as { type: string; [key: string]: unknown },
    })),
  });
  const joined = await hotRows<ThreadOutcome & { messageId: string }>(Prisma.sql`
    WITH ${insertMessagesCte(rows, at)}, ${threads}
    SELECT t.mid AS "messageId", conv."id", conv."contactPhoneNumber", conv."contactName", conv."createdAt", conv.created
      FROM t_in t JOIN conv ON conv."contactPhoneNumber" = t.recipient`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const recorded = new Map<string, RecordedSend>();
  for (const { messageId, ...conversation } of joined) {
    const message = byId.get(messageId);
    if (message?.status === SENDING) recorded.set(messageId, { message, conversation });
  }
  return recorded;
}

/** The live notices and created conversations of the sends that went (the batch publishes and announces them together). */
export function threadNotices(
  sent: RecordedSend[],
  sender: Sender,
  live: LiveEvent[],
  created: CreatedConversation[],
): void {
  for (const { conversation } of sent) {
    live.push({ kind: "message.created", senderId: sender.id, conversationUid: conversation.id });
    if (conversation.created) created.push({ sender, outcome: conversation });
  }
}

/**
 * Messages recorded for calls that were withdrawn before they were made (their broadcast
 * stopped meanwhile): deleted with their thread entries, as if never recorded. Returns the ones
 * deleted (one the reconciliation already marked "unknown" stays).
 */
export async function discardUncalled(ids: string[]): Promise<Set<string>> {
  return new Set(await deleteUncalled(ids));
}

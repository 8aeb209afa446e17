// A broadcast's sends, written per group (docs/broadcasts.md "How it sends", docs/messaging.md
// "Write, call, complete"): the Message rows ("sending") of the calls about to be made are
// written in one statement BEFORE those calls (recordMessages), the calls are made without a
// statement each (dispatch.ts callRecorded), their outcomes are written in one statement after
// (message-store.ts completeMessages), and only then do the calls made join their contacts'
// conversations, in one statement (joinThreads): a call withdrawn before it was made (its
// broadcast paused or cancelled meanwhile) was never recorded and touches no conversation.
// Plain pg, not the ORM: Prisma's per-statement CPU costs more than the statements (lib/db/pool.ts hotRows).
import { hotRows } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import {
  type CreatedConversation,
  outboundThreadsSql,
  type SentBy,
  type ThreadOutcome,
} from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { insertMessagesCte } from "@/lib/domains/messages/rows";
import type { Sender } from "@/lib/domains/senders/service";
import { type Message, Prisma } from "@/lib/generated/prisma/client";
import { messageRow } from "./message-store";
import { newMessageOf } from "./send";
import type { CheckedSend } from "./send-checks";

/**
 * Records the messages of checked sends of a connected sender in one statement: the rows
 * written. A send whose message id is already taken is left out: it recorded nothing and must
 * not be called.
 */
export async function recordMessages(p: Principal, sender: Sender, sends: CheckedSend[]): Promise<Message[]> {
  if (sends.length === 0) return [];
  if (sender.connectionStatus === "RECONNECTING") throw new Error("a batch is recorded for a connected sender");
  const now = new Date();
  const rows = sends.map((s) => messageRow(newMessageOf(p, sender, s), now));
  const written = await hotRows<{ id: string }>(
    Prisma.sql`WITH ${insertMessagesCte(rows, now.toISOString())} SELECT "id" FROM m`,
  );
  const ids = new Set(written.map((r) => r.id));
  return rows.filter((r) => ids.has(r.id));
}

/**
 * The calls made (their provider calls attempted: accepted, refused or unknown, as a single
 * send's message joins its conversation whatever its call's outcome) join their contacts'
 * conversations, all sent by one hand: one statement for a batch of distinct contacts (a
 * broadcast's, docs/conversations.md), the conversation reopened, a person's hand-off and SLA
 * response targets met and the support reply recorded, as outboundThreadSql does for one send,
 * each at its message's record time (what happened to the conversation since stands).
 * Their live notices go to `live`, the conversations they created to `created`.
 */
export async function joinThreads(
  sender: Sender,
  sentBy: SentBy,
  made: Message[],
  live: LiveEvent[],
  created: CreatedConversation[],
): Promise<void> {
  if (made.length === 0) return;
  // One conversation upsert per contact: two rows of one contact in one statement would
  // conflict, so a batch with a contact twice joins them one statement each.
  const groups = new Set(made.map((m) => m.recipient)).size === made.length ? [made] : made.map((m) => [m]);
  const joined: (ThreadOutcome & { messageId: string })[] = [];
  for (const group of groups) {
    const threads = outboundThreadsSql({
      customerId: sender.customerId,
      senderId: sender.id,
      sentBy,
      threads: group.map((m) => ({
        messageId: m.id,
        recipient: m.recipient,
        payload: m.payload as { type: string; [key: string]: unknown },
        at: m.createdAt.toISOString(),
      })),
    });
    joined.push(
      ...(await hotRows<ThreadOutcome & { messageId: string }>(Prisma.sql`
        WITH ${threads}
        SELECT t.mid AS "messageId", conv."id", conv."contactPhoneNumber", conv."contactName", conv."createdAt", conv.created
          FROM t_in t JOIN conv ON conv."contactPhoneNumber" = t.recipient`)),
    );
  }
  for (const { messageId: _, ...conversation } of joined) {
    live.push({ kind: "message.created", senderId: sender.id, conversationUid: conversation.id });
    if (conversation.created) created.push({ sender, outcome: conversation });
  }
}

// A broadcast's sends, written per group (docs/broadcasts.md "How it sends", docs/messaging.md
// "Write, call, complete"): the Message rows ("sending") of the calls about to be made and
// their conversation entries are written in one statement BEFORE those calls (recordMessages),
// the calls are made without a statement each (dispatch.ts callRecorded), and the group's
// outcomes are written in one statement as soon as its calls have all returned (message-store.ts
// completeMessages). A call withdrawn before its group was recorded (its broadcast paused or
// cancelled meanwhile) left nothing: no message, no conversation touched.
// Plain pg, not the ORM: Prisma's per-statement CPU costs more than the statements (lib/db/pool.ts hotRows).
import { hotRows, hotTransaction } from "@/lib/db";
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
 * Records the messages of checked sends of a connected sender, none a person's reply (a
 * broadcast's group), with their conversation entries: one statement writes the Message rows,
 * upserts (and reopens) their contacts' conversations and files each message in its thread,
 * so a message row never stands without its entry. The rows written; a send whose message id
 * is already taken is left out: it recorded nothing and must not be called. The live notices
 * go to `live`, the conversations created to `created` (the batch announces them together).
 */
export async function recordMessages(
  p: Principal,
  sender: Sender,
  sentBy: SentBy,
  sends: CheckedSend[],
  live: LiveEvent[],
  created: CreatedConversation[],
): Promise<Message[]> {
  if (sends.length === 0) return [];
  if (sender.connectionStatus === "RECONNECTING") throw new Error("a batch is recorded for a connected sender");
  const now = new Date();
  const at = now.toISOString();
  const rows = sends.map((s) => messageRow(newMessageOf(p, sender, s), now));
  // One conversation upsert per contact: two rows of one contact in one statement would
  // conflict, so a group with a contact twice is recorded one statement per message.
  const statements = new Set(rows.map((r) => r.recipient)).size === rows.length ? [rows] : rows.map((r) => [r]);
  const joined: (ThreadOutcome & { messageId: string })[] = [];
  for (const group of statements) {
    const threads = outboundThreadsSql({
      customerId: sender.customerId,
      senderId: sender.id,
      sentBy,
      at,
      threads: group.map((r) => ({
        messageId: r.id,
        recipient: r.recipient,
        payload: r.payload as { type: string; [key: string]: unknown },
      })),
    });
    const write = Prisma.sql`
        WITH ${insertMessagesCte(group, at)}, ${threads}
        SELECT t.mid AS "messageId", conv."id", conv."contactPhoneNumber", conv."contactName", conv."createdAt", conv.created
          FROM t_in t JOIN conv ON conv."contactPhoneNumber" = t.recipient`;
    // The group's existing conversations are locked first, in id order, the order every other
    // path takes them in (the inbound batch, labels, SLA walks): upserted in the statement's own
    // order, a group and an inbound batch could each hold one contact's row the other needs.
    const lock = Prisma.sql`SELECT "id" FROM "Conversation" WHERE "senderId" = ${sender.id}
        AND "contactPhoneNumber" = ANY(${group.map((r) => r.recipient)}::text[]) ORDER BY "id" FOR UPDATE`;
    joined.push(...(await recordGroup(lock, write, group.length > 1)));
  }
  for (const { messageId: _, ...conversation } of joined) {
    live.push({ kind: "message.created", senderId: sender.id, conversationUid: conversation.id });
    if (conversation.created) created.push({ sender, outcome: conversation });
  }
  const ids = new Set(joined.map((j) => j.messageId));
  return rows.filter((r) => ids.has(r.id));
}

/** PostgreSQL's deadlock_detected: the transaction was rolled back, nothing of it stands. */
const DEADLOCK = "40P01";
/** Tries of a group's record that a deadlock undid (nothing was written or called yet). */
const RECORD_TRIES = 3;

/** One group's statement (after its locks, when it holds several contacts), tried again after a deadlock. */
async function recordGroup(
  lock: Prisma.Sql,
  write: Prisma.Sql,
  locks: boolean,
): Promise<(ThreadOutcome & { messageId: string })[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      // One contact takes one conversation lock: no order to keep, no transaction needed.
      if (!locks) return await hotRows<ThreadOutcome & { messageId: string }>(write);
      return await hotTransaction(async (statement) => {
        await statement(lock.text, lock.values);
        return (await statement(write.text, write.values)).rows as (ThreadOutcome & { messageId: string })[];
      });
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK || attempt >= RECORD_TRIES) throw error;
    }
  }
}

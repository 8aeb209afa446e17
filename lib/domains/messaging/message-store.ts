// Writes a message row with one raw statement on plain pg (the hot path of every send:
// Prisma's per-statement CPU costs more than the insert itself, see hotRows) and returns
// the row as Prisma would. A send writes its row ("sending") before the provider call and
// completes it after (completeMessage); rows a crash left "sending" are reconciled.
// The same statement files it in its conversation and, under an Idempotency-Key, links it to
// the key (docs/idempotency.md "A retry after a crash"). The statements on the Message table
// itself are the message store's (lib/domains/messages/rows.ts).

import { log } from "@/lib/core/log";
import { hotRows } from "@/lib/db";
import {
  announceIfCreated,
  type CreatedConversation,
  outboundThreadSql,
  type SentBy,
  type ThreadOutcome,
} from "@/lib/domains/conversations/outbound";
import type { ReplyTo } from "@/lib/domains/conversations/quotes";
import type { EventSender } from "@/lib/domains/events/emit";
import { keyLinkCte } from "@/lib/domains/idempotency/key-run";
import type { LiveEvent } from "@/lib/domains/live/events";
import { messageCreatedNotify, messageStatusNotify } from "@/lib/domains/live/publish";
import {
  completeMessageCte,
  completeMessagesCte,
  insertMessageCte,
  markInterruptedSends,
  type OutcomeColumns,
} from "@/lib/domains/messages/rows";
import { type Message, Prisma } from "@/lib/generated/prisma/client";

export type NewMessage = Omit<
  Message,
  | "createdAt"
  | "updatedAt"
  | "payload"
  | "status"
  | "queued"
  | "attempts"
  | "errorCode"
  | "errorMessage"
  | "providerMessageId"
  | "broadcastId"
  | "mediaId"
> & {
  payload: unknown;
  /** The broadcast a message is sent for (docs/broadcasts.md); absent for every other send. */
  broadcastId?: string | null;
  status: string;
  queued: boolean;
  attempts?: number;
  errorCode?: number | null;
  errorMessage?: string | null;
  providerMessageId?: string | null;
  /** The file a media send names by id (docs/media.md). */
  mediaId?: string | null;
};

/** Who sent the message and from which sender: the message joins its conversation (lib/domains/conversations). */
export type ThreadContext = {
  sender: EventSender;
  sentBy: SentBy;
  /**
   * Collects the message's live notices instead of notifying them in its statements: a batch
   * of sends (a broadcast's) publishes them together in one statement (publishLive). Each
   * NOTIFY serialises its transaction's commit across the server, so one per message costs a
   * queue at every commit.
   */
  live?: LiveEvent[];
  /** Collects the conversation this message created, for the batch to announce together (announceCreated). */
  created?: CreatedConversation[];
  /** The message it quotes (docs/messaging.md "Quoted replies"), kept on its thread entry. */
  replyTo?: ReplyTo | null;
};

/** The row a new message is written as, timestamped `now`. */
export function messageRow(m: NewMessage, now: Date): Message {
  return {
    ...m,
    payload: m.payload as Prisma.JsonValue,
    attempts: m.attempts ?? 0,
    errorCode: m.errorCode ?? null,
    errorMessage: m.errorMessage ?? null,
    providerMessageId: m.providerMessageId ?? null,
    broadcastId: m.broadcastId ?? null,
    mediaId: m.mediaId ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export async function insertMessage(m: NewMessage, thread: ThreadContext): Promise<Message> {
  const now = new Date();
  const row = messageRow(m, now);
  // Timestamps are timestamp(3) holding UTC, written from the ISO text like Prisma does.
  const at = now.toISOString();
  const conversation = outboundThreadSql({
    messageId: row.id,
    customerId: row.customerId,
    senderId: row.senderId,
    recipient: row.recipient,
    payload: m.payload as { type: string },
    sentBy: thread.sentBy,
    at,
    replyTo: thread.replyTo ?? null,
  });
  const [outcome] = await hotRows<ThreadOutcome>(Prisma.sql`
    WITH ${insertMessageCte(row, at)},
    ${conversation}${keyLinkCte(row.customerId, row.id)}
    SELECT conv."id", conv."contactPhoneNumber", conv."contactName", conv."createdAt", conv.created,
      ${thread.live ? Prisma.sql`0` : Prisma.sql`(SELECT count(${messageCreatedNotify(row.customerId, row.senderId, Prisma.sql`c."id"`)}) FROM conv c)`} AS live
    FROM conv`);
  if (thread.live && outcome) {
    thread.live.push({ kind: "message.created", senderId: row.senderId, conversationUid: outcome.id });
  }
  if (thread.created) {
    if (outcome?.created) thread.created.push({ sender: thread.sender, outcome });
  } else await announceIfCreated(thread.sender, outcome);
  return row;
}

const COMPLETE_TRIES = 3;
// Outcomes this process could not write yet: retried by reconcileStaleSends before any row
// of theirs is given up as "unknown".
const unwritten = new Map<string, OutcomeColumns>();

async function writeOutcome(id: string, c: OutcomeColumns, live?: LiveEvent[]): Promise<boolean> {
  const at = new Date().toISOString();
  // The thread's ticks move live (docs/inbox.md "Live updates"): notified in the same statement,
  // or collected for the batch's one notification (ThreadContext.live).
  const rows = await hotRows<{ id: string; senderId: string }>(Prisma.sql`
    WITH ${completeMessageCte(id, c, at)}
    SELECT u."id", u."senderId", ${
      live
        ? Prisma.sql`0`
        : Prisma.sql`(SELECT count(${messageStatusNotify({
            customerId: Prisma.sql`n."customerId"`,
            senderId: Prisma.sql`n."senderId"`,
            id: Prisma.sql`n."id"`,
            status: Prisma.sql`n."status"`,
          })}) FROM u n)`
    } AS live FROM u`);
  for (const r of live ? rows : [])
    live?.push({ kind: "message.status", senderId: r.senderId, messageId: r.id, status: c.status });
  return rows.length > 0;
}

/**
 * Completes a row written before its provider call (status "sending") with the outcome.
 * Never throws: after the provider accepted, the client gets its receipt whatever the
 * database does; an outcome that cannot be written now is retried a few times here and
 * then by the background reconciliation (reconcileStaleSends).
 */
export async function completeMessage(row: Message, c: OutcomeColumns, live?: LiveEvent[]): Promise<Message> {
  const done: Message = {
    ...row,
    ...c,
    providerMessageId: c.providerMessageId ?? null,
    errorCode: c.errorCode ?? null,
    errorMessage: c.errorMessage ?? null,
    updatedAt: new Date(),
  };
  for (let attempt = 1; attempt <= COMPLETE_TRIES; attempt++) {
    try {
      await writeOutcome(row.id, c, live);
      unwritten.delete(row.id);
      return done;
    } catch (error) {
      if (attempt === COMPLETE_TRIES) {
        log.error({ err: error, messageUid: row.id }, "send outcome not recorded yet; the reconciliation retries it");
        if (unwritten.size < 100_000) unwritten.set(row.id, c);
      } else await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
  return done;
}

/**
 * Completes many rows written before their provider calls in one statement (a broadcast's group of calls,
 * docs/broadcasts.md "How it sends"), as completeMessage each: never throws, an outcome that
 * cannot be written is retried here and then by the reconciliation. Their live ticks go to `live`.
 */
export async function completeMessages(
  done: { row: Message; c: OutcomeColumns }[],
  live: LiveEvent[],
): Promise<Message[]> {
  const sorted = [...done].sort((a, b) => (a.row.id < b.row.id ? -1 : 1));
  for (let attempt = 1; sorted.length > 0 && attempt <= COMPLETE_TRIES; attempt++) {
    try {
      const at = new Date().toISOString();
      const rows = await hotRows<{ id: string; senderId: string; status: string }>(Prisma.sql`
        WITH ${completeMessagesCte(
          sorted.map((d) => ({ id: d.row.id, c: d.c })),
          at,
        )} SELECT u."id", u."senderId", u."status" FROM u`);
      for (const r of rows)
        live.push({ kind: "message.status", senderId: r.senderId, messageId: r.id, status: r.status });
      for (const d of sorted) unwritten.delete(d.row.id);
      break;
    } catch (error) {
      if (attempt === COMPLETE_TRIES) {
        log.error(
          { err: error, count: sorted.length },
          "send outcomes not recorded yet; the reconciliation retries them",
        );
        for (const d of sorted) if (unwritten.size < 100_000) unwritten.set(d.row.id, d.c);
      } else await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
  const updatedAt = new Date();
  return done.map(({ row, c }) => ({
    ...row,
    ...c,
    providerMessageId: c.providerMessageId ?? null,
    errorCode: c.errorCode ?? null,
    errorMessage: c.errorMessage ?? null,
    updatedAt,
  }));
}

/**
 * Background reconciliation: first writes the outcomes this process still holds, then
 * marks rows left "sending" for longer than `olderThanMs` (their process stopped between
 * the provider call and the completion) as "unknown" (docs/api/errors.md "When to retry": the provider may
 * have the message; read the report before resending).
 */
export async function reconcileStaleSends(olderThanMs: number): Promise<{ written: number; unknown: number }> {
  let written = 0;
  for (const [id, c] of [...unwritten]) {
    try {
      if (await writeOutcome(id, c)) written += 1;
      unwritten.delete(id);
    } catch (error) {
      log.warn({ err: error, messageUid: id }, "send outcome still not recorded");
    }
  }
  const unknown = await markInterruptedSends(new Date(Date.now() - olderThanMs), [...unwritten.keys()]);
  if (unknown > 0) log.warn({ count: unknown }, "interrupted sends marked unknown");
  return { written, unknown };
}

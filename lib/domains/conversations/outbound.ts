// Every outbound message joins its conversation in the statement that stores it (see
// lib/domains/messaging/message-store.ts), a broadcast's after its call, with its batch's
// (lib/domains/messaging/send-batch.ts): the conversation is upserted by (sender, contact) and a
// thread entry links the Message row, whose payload and live status the thread reads.
import { db } from "@/lib/db";
import { newIds } from "@/lib/db/sql";
import type { EventSender } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { personRepliesSql, personReplySql } from "@/lib/domains/support/periods";
import { Prisma } from "@/lib/generated/prisma/client";
import { previewOf } from "./content";
import { createdEvent, emitConversationEvents } from "./events";
import { newConversationUid, newConversationUids } from "./ids";
import type { ReplyTo } from "./quotes";
import type { SentByKind } from "./schemas";

export type SentBy = {
  by: Exclude<SentByKind, "contact" | "system">;
  label?: string | null;
  /** Leaves a closed conversation closed: a CSAT survey sent after the close (docs/reports.md "CSAT"). */
  keepsClosed?: boolean;
};

/** The sends a person made (not a chatbot's): they answer a hand-off. */
const PERSON_SENDS: ReadonlySet<SentBy["by"]> = new Set(["api", "dashboard"]);

export type OutboundThread = {
  messageId: string;
  customerId: string;
  senderId: string;
  recipient: string;
  payload: { type: string; [key: string]: unknown };
  sentBy: SentBy;
  /** ISO time of the message row. */
  at: string;
  /** The message it quotes (a quoted reply; docs/messaging.md "Quoted replies"). */
  replyTo?: ReplyTo | null;
};

/**
 * A send into a closed conversation reopens it (docs/conversations.md), and a person's send
 * ends a chatbot hand-off's wait (docs/inbox.md).
 * CTEs `conv` and `entry` (and, for a person's reply, the support figures' CTEs) to follow `WITH m AS (INSERT INTO "Message" ...)`; the statement
 * then selects `conv.id, conv.created`. One round trip for message, conversation and entry.
 */
export function outboundThreadSql(t: OutboundThread): Prisma.Sql {
  const at = Prisma.sql`${t.at}::timestamptz AT TIME ZONE 'UTC'`;
  const preview = previewOf(t.payload.type, t.payload);
  return Prisma.sql`conv AS (
      INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "lastMessageAt",
        "lastMessagePreview", "createdAt", "updatedAt")
      VALUES (${newConversationUid()}, ${t.customerId}, ${t.senderId}, ${t.recipient}, ${at}, ${preview}, ${at}, ${at})
      ${onConflict(t.sentBy)}
      RETURNING "id", "contactPhoneNumber", "contactName", "createdAt", (xmax = 0) AS created
    ), entry AS (
      INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "messageId",
        "sentBy", "sentByLabel", "createdAt", "replyTo")
      SELECT ${t.messageId}, ${t.customerId}, conv."id", 'outbound', ${t.payload.type}, ${t.messageId},
        ${t.sentBy.by}, ${t.sentBy.label ?? null}, ${at}, ${t.replyTo ? JSON.stringify(t.replyTo) : null}::jsonb FROM conv
    )${
      // A person's reply ends the wait the support figures measure (docs/reports.md "Definitions").
      PERSON_SENDS.has(t.sentBy.by)
        ? personReplySql(at, t.sentBy.by === "api" ? "api" : (t.sentBy.label ?? "dashboard"))
        : Prisma.empty
    }`;
}

/**
 * What a send does to the conversation it joins (the upsert's conflict branch). `late`: the
 * message joins after its call (a broadcast's, outboundThreadsSql), at its own record time:
 * what happened to the conversation since (a contact's reply, a member's close, a hand-off or
 * SLA deadline that reply began, a later preview) stands, as if it had joined when recorded.
 */
function onConflict(sentBy: SentBy, late = false): Prisma.Sql {
  const at = Prisma.sql`EXCLUDED."lastMessageAt"`;
  const unless = (cond: Prisma.Sql, value: Prisma.Sql, column: string) =>
    late ? Prisma.sql`CASE WHEN ${cond} THEN ${value} ELSE "Conversation".${Prisma.raw(`"${column}"`)} END` : value;
  const noReplySince = Prisma.sql`("Conversation"."lastInboundAt" IS NULL OR "Conversation"."lastInboundAt" <= ${at})`;
  const notClosedSince = Prisma.sql`("Conversation"."closedAt" IS NULL OR "Conversation"."closedAt" <= ${at})`;
  return Prisma.sql`ON CONFLICT ("senderId", "contactPhoneNumber") DO UPDATE SET
        "lastMessageAt" = GREATEST("Conversation"."lastMessageAt", EXCLUDED."lastMessageAt"),
        "lastMessagePreview" = ${unless(Prisma.sql`"Conversation"."lastMessageAt" <= ${at}`, Prisma.sql`EXCLUDED."lastMessagePreview"`, "lastMessagePreview")},
        "updatedAt" = ${late ? Prisma.sql`GREATEST("Conversation"."updatedAt", EXCLUDED."updatedAt")` : Prisma.sql`EXCLUDED."updatedAt"`}${
          sentBy.keepsClosed
            ? Prisma.empty
            : Prisma.sql`, "status" = ${unless(notClosedSince, Prisma.sql`'OPEN'`, "status")},
              "closedAt" = ${unless(notClosedSince, Prisma.sql`NULL`, "closedAt")}`
        }${
          // A person's reply (API or dashboard) ends the wait a chatbot's hand-off began.
          // It also meets the SLA's response targets: only the resolution stays due (docs/reports.md "SLA policies").
          PERSON_SENDS.has(sentBy.by)
            ? Prisma.sql`, "handoffAt" = ${unless(noReplySince, Prisma.sql`NULL`, "handoffAt")},
              "slaFirstResponseDueAt" = ${unless(noReplySince, Prisma.sql`NULL`, "slaFirstResponseDueAt")},
              "slaNextResponseDueAt" = ${unless(noReplySince, Prisma.sql`NULL`, "slaNextResponseDueAt")},
              "slaDueAt" = ${unless(noReplySince, Prisma.sql`"Conversation"."slaResolutionDueAt"`, "slaDueAt")}`
            : Prisma.empty
        }`;
}

/** A batch of sends from one sender, one message per contact, all by the same hand (a broadcast's batch). */
export type OutboundThreads = {
  customerId: string;
  senderId: string;
  sentBy: SentBy;
  /** Each message's id, contact, body and record time (ISO, UTC): it joins at that time. */
  threads: { messageId: string; recipient: string; payload: { type: string; [key: string]: unknown }; at: string }[];
};

/**
 * outboundThreadSql for a batch in one statement: CTEs `t_in`, `conv` and `entry` (and a
 * person's support figures) for messages already written (a broadcast's calls made, after
 * them: lib/domains/messaging/send-batch.ts joinThreads). The statement then selects from
 * `t_in JOIN conv ON conv."contactPhoneNumber" = t_in.recipient`. The conversations are upserted
 * in contact order, the order every batch takes their row locks in. Each message joins at its
 * record time (`late`, onConflict): a reply or close since then is not undone, and a wait that
 * began after it is not answered by it.
 */
export function outboundThreadsSql(b: OutboundThreads): Prisma.Sql {
  const n = b.threads.length;
  const col = <T>(f: (t: OutboundThreads["threads"][number]) => T) => b.threads.map(f);
  return Prisma.sql`t_in AS (
      SELECT t.mid, t.recipient, t.type, t.preview, t.cid, t.rid, (t.iso::timestamptz AT TIME ZONE 'UTC') AS at
        FROM unnest(${col((t) => t.messageId)}::text[], ${col((t) => t.recipient)}::text[],
        ${col((t) => t.payload.type)}::text[], ${col((t) => previewOf(t.payload.type, t.payload))}::text[],
        ${newConversationUids(n)}::text[], ${newIds("sr_", n)}::text[], ${col((t) => t.at)}::text[])
        AS t(mid, recipient, type, preview, cid, rid, iso)
    ), conv AS (
      INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "lastMessageAt",
        "lastMessagePreview", "createdAt", "updatedAt")
      SELECT t.cid, ${b.customerId}, ${b.senderId}, t.recipient, t.at, t.preview, t.at, t.at FROM t_in t ORDER BY t.recipient
      ${onConflict(b.sentBy, true)}
      RETURNING "id", "contactPhoneNumber", "contactName", "createdAt", (xmax = 0) AS created
    ), entry AS (
      INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "messageId",
        "sentBy", "sentByLabel", "createdAt")
      SELECT t.mid, ${b.customerId}, conv."id", 'outbound', t.type, t.mid, ${b.sentBy.by}, ${b.sentBy.label ?? null}, t.at
        FROM t_in t JOIN conv ON conv."contactPhoneNumber" = t.recipient
    )${
      PERSON_SENDS.has(b.sentBy.by)
        ? personRepliesSql(
            Prisma.sql`(SELECT t.at FROM t_in t WHERE t.recipient = conv."contactPhoneNumber")`,
            b.sentBy.by === "api" ? "api" : (b.sentBy.label ?? "dashboard"),
            Prisma.sql`(SELECT t.rid FROM t_in t WHERE t.recipient = conv."contactPhoneNumber")`,
          )
        : Prisma.empty
    }`;
}

export type ThreadOutcome = {
  id: string;
  contactPhoneNumber: string;
  contactName: string | null;
  createdAt: Date;
  created: boolean;
};

/** A conversation a send created, announced later with its batch's (announceCreated). */
export type CreatedConversation = { sender: EventSender; outcome: ThreadOutcome };

/** The conversations a batch of sends created, announced in one statement (a broadcast's batch). */
export async function announceCreated(created: CreatedConversation[]): Promise<void> {
  const events = created.flatMap((c) => (c.outcome.created ? [createdEvent(c.sender, c.outcome, "outbound")] : []));
  if (events.length === 0) return;
  if ((await emitConversationEvents(db, events)) > 0) deliveriesQueued();
}

/** After the insert: a conversation this message created is announced (conversation.created). */
export async function announceIfCreated(sender: EventSender, outcome: ThreadOutcome | undefined): Promise<void> {
  if (!outcome?.created) return;
  if ((await emitConversationEvents(db, [createdEvent(sender, outcome, "outbound")])) > 0) deliveriesQueued();
}

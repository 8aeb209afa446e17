// Every outbound message joins its conversation in the statement that stores it (see
// lib/domains/messaging/message-store.ts; a broadcast's group of messages in its group's one
// statement, lib/domains/messaging/send-batch.ts): the conversation is upserted by (sender,
// contact) and a thread entry links the Message row, whose payload and live status the thread reads.
import { db } from "@/lib/db";
import type { EventSender } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { handoffEndedByClose } from "@/lib/domains/support/last-close";
import { personReplySql } from "@/lib/domains/support/periods";
import { answersContact, PERSON_SENT_BY } from "@/lib/domains/support/person-reply";
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
  /**
   * Sent through the API but no person's reply: a broadcast's message (its label names the
   * broadcast). It answers no wait, ends no hand-off and meets no SLA target (docs/reports.md
   * "Definitions": a broadcast's message never counts).
   */
  notAReply?: boolean;
};

/** The sends a person made (not a chatbot's): they answer a hand-off. */
const PERSON_SENDS: ReadonlySet<SentBy["by"]> = new Set(PERSON_SENT_BY);
const isPersonReply = (sentBy: SentBy): boolean => PERSON_SENDS.has(sentBy.by) && sentBy.notAReply !== true;
/** Whether a send answers the contact: a person's reply that says something (person-reply.ts). */
const answers = (sentBy: SentBy, type: string): boolean => isPersonReply(sentBy) && answersContact(type);

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
      ${onConflict(t.sentBy, answers(t.sentBy, t.payload.type))}
      RETURNING "id", "contactPhoneNumber", "contactName", "createdAt", (xmax = 0) AS created
    ), entry AS (
      INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "messageId",
        "sentBy", "sentByLabel", "createdAt", "replyTo")
      SELECT ${t.messageId}, ${t.customerId}, conv."id", 'outbound', ${t.payload.type}, ${t.messageId},
        ${t.sentBy.by}, ${t.sentBy.label ?? null}, ${at}, ${t.replyTo ? JSON.stringify(t.replyTo) : null}::jsonb FROM conv
    )${
      // A person's reply ends the wait the support figures measure (docs/reports.md "Definitions").
      answers(t.sentBy, t.payload.type)
        ? personReplySql(at, t.sentBy.by === "api" ? "api" : (t.sentBy.label ?? "dashboard"))
        : Prisma.empty
    }`;
}

const REOPENED_HANDOFF = `CASE WHEN ${handoffEndedByClose('"Conversation"')} THEN NULL ELSE "Conversation"."handoffAt" END`;

/** What a send does to the conversation it joins (the upsert's conflict branch). */
function onConflict(sentBy: SentBy, answers: boolean): Prisma.Sql {
  return Prisma.sql`ON CONFLICT ("senderId", "contactPhoneNumber") DO UPDATE SET
        "lastMessageAt" = GREATEST("Conversation"."lastMessageAt", EXCLUDED."lastMessageAt"),
        "lastMessagePreview" = EXCLUDED."lastMessagePreview", "updatedAt" = EXCLUDED."updatedAt"${
          sentBy.keepsClosed
            ? Prisma.empty
            : Prisma.sql`, "status" = 'OPEN', "closedAt" = NULL${
                // Reopened: a hand-off its close ended waits no more (last-close.ts); a person's reply clears it anyway.
                answers ? Prisma.empty : Prisma.raw(`, "handoffAt" = ${REOPENED_HANDOFF}`)
              }`
        }${
          // A person's reply (API or dashboard) ends the wait a chatbot's hand-off began.
          // It also meets the SLA's response targets: only the resolution stays due (docs/reports.md "SLA policies").
          answers
            ? Prisma.sql`, "handoffAt" = NULL, "slaFirstResponseDueAt" = NULL, "slaNextResponseDueAt" = NULL,
              "slaDueAt" = "Conversation"."slaResolutionDueAt"`
            : Prisma.empty
        }`;
}

/**
 * A group of sends from one sender, one message per contact, all by the same hand and none a
 * person's reply (a broadcast's group of calls, notAReply): their messages, the record time.
 */
export type OutboundThreads = {
  customerId: string;
  senderId: string;
  sentBy: SentBy;
  /** ISO time of the message rows. */
  at: string;
  threads: { messageId: string; recipient: string; payload: { type: string; [key: string]: unknown } }[];
};

/**
 * outboundThreadSql for a group of sends in the statement that writes their Message rows:
 * CTEs `t_in`, `conv` and `entry` to follow `WITH m AS (INSERT INTO "Message" ... RETURNING
 * "id")` (lib/domains/messages/rows.ts insertMessagesCte). Only the messages `m` wrote join
 * (a message id already taken joins nothing), so a message row never stands without its entry.
 * The caller locks the existing conversations first, in id order (send-batch.ts recordMessages);
 * the statement then selects from `t_in JOIN conv ON conv."contactPhoneNumber" = t_in.recipient`.
 * No person's reply: the support figures' CTEs are not part of it (a broadcast's message
 * answers no wait, docs/reports.md "Definitions").
 */
export function outboundThreadsSql(b: OutboundThreads): Prisma.Sql {
  if (isPersonReply(b.sentBy)) throw new Error("a group of sends joins its threads only when none is a person's reply");
  const n = b.threads.length;
  const col = <T>(f: (t: OutboundThreads["threads"][number]) => T) => b.threads.map(f);
  const at = Prisma.sql`${b.at}::timestamptz AT TIME ZONE 'UTC'`;
  return Prisma.sql`t_in AS (
      SELECT t.mid, t.recipient, t.type, t.preview, t.cid
        FROM unnest(${col((t) => t.messageId)}::text[], ${col((t) => t.recipient)}::text[],
        ${col((t) => t.payload.type)}::text[], ${col((t) => previewOf(t.payload.type, t.payload))}::text[],
        ${newConversationUids(n)}::text[]) AS t(mid, recipient, type, preview, cid)
       WHERE t.mid IN (SELECT "id" FROM m)
    ), conv AS (
      INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "lastMessageAt",
        "lastMessagePreview", "createdAt", "updatedAt")
      SELECT t.cid, ${b.customerId}, ${b.senderId}, t.recipient, ${at}, t.preview, ${at}, ${at} FROM t_in t ORDER BY t.recipient
      ${onConflict(b.sentBy, false)}
      RETURNING "id", "contactPhoneNumber", "contactName", "createdAt", (xmax = 0) AS created
    ), entry AS (
      INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "messageId",
        "sentBy", "sentByLabel", "createdAt")
      SELECT t.mid, ${b.customerId}, conv."id", 'outbound', t.type, t.mid, ${b.sentBy.by}, ${b.sentBy.label ?? null}, ${at}
        FROM t_in t JOIN conv ON conv."contactPhoneNumber" = t.recipient
    )`;
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

// The support figures, written as they happen (docs/reports.md "Definitions"): a conversation's
// period opens at its first inbound (a later inbound after a close opens another, marked
// reopened), an inbound that waits for a person starts its wait (not while a chatbot holds
// the conversation: then the hand-off starts it), a person's reply (a member in the inbox or
// the API; never a chatbot, a rule or a broadcast) ends the wait and is recorded as the
// period's first response or a next one, and a close resolves the period. Each runs in the
// transaction or statement of the change it follows, so the figures never disagree with the
// thread; the reports read these indexed rows (report.ts). Each duration is written twice: in
// seconds, and in the account's business seconds as its hours stand at that moment (the SQL
// function switchboard_business_seconds, the twin of business-hours/hours.ts; null without
// hours), so hours changed later do not rewrite history (docs/reports.md "Business hours").
import type { Tx } from "@/lib/db";
import { newId, newIds } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { lastCloseSql } from "./last-close";
import { PERSON_HOLDS_MS, PERSON_REPLY_SQL } from "./person-reply";

export type InboundArrival = {
  conversationId: string;
  customerId: string;
  senderId: string;
  /** The earliest of the new inbound messages of this conversation in the batch. */
  at: Date;
  /** How many new inbound messages. */
  count: number;
  /**
   * When the chatbot's guard read the conversation for these messages (docs/chatbots.md
   * "Guards"): a person's reply from 30 minutes before then holds it, as it quiets the bot.
   * Live messages pass the moment their conversations were locked (conversations/inbound.ts):
   * one processed a second or more after its provider's whole second keeps that second, so a
   * person's reply made within it, before the message, would otherwise be missed. A replay of
   * history passes nothing: the replies of the 30 minutes up to the message's own time hold it.
   */
  decidedAt?: Date;
};

const iso = (d: Date) => d.toISOString();

/**
 * An arrival's time (`u.at`, of conversation `u.conv`), but never before the conversation's last
 * close: a message sent before a close and processed after it (a backlog, a provider's retry, or
 * just its whole-second timestamp) opens the next period, which starts no earlier than the close
 * that ended the one before (periods never overlap, and follow each other in time).
 */
const NOT_BEFORE_LAST_CLOSE = `GREATEST(u.at::timestamp(3), ${lastCloseSql("u.conv")})`;

/**
 * New inbound messages (lib/domains/conversations/inbound.ts, the conversations locked):
 * a period opens where none is open, and the oldest waiting inbound is kept.
 */
export async function recordInbound(tx: Tx, arrivals: InboundArrival[]): Promise<void> {
  if (arrivals.length === 0) return;
  const ids = newIds("sp_", arrivals.length);
  await tx.$executeRawUnsafe(
    `INSERT INTO "SupportPeriod" ("id", "customerId", "senderId", "conversationId", "startedAt", "reopened")
     SELECT s.id, s.customer, s.sender, s.conv, s.at,
       EXISTS (SELECT 1 FROM "SupportPeriod" q WHERE q."conversationId" = s.conv)
     FROM (SELECT u.id, u.customer, u.sender, u.conv, ${NOT_BEFORE_LAST_CLOSE} AS at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(id, customer, sender, conv, at)) s
     WHERE NOT EXISTS (SELECT 1 FROM "SupportPeriod" q WHERE q."conversationId" = s.conv AND q."resolvedAt" IS NULL)`,
    ids,
    arrivals.map((a) => a.customerId),
    arrivals.map((a) => a.senderId),
    arrivals.map((a) => a.conversationId),
    arrivals.map((a) => iso(a.at)),
  );
  // The wait's start, by the CASE's branches in order:
  // - A period already waiting: an earlier message moves the start back (it waited longer), but
  //   never before the hand-off that began it, since before it the bot answered. A message is dated
  //   by the provider's whole second, so one sent just after a hand-off may carry a time before it.
  // - A period not waiting yet waits from this message unless a chatbot holds the conversation:
  //   its sender has an active bot and nobody took over (no hand-off, no person's reply yet in this
  //   period, nor one in the 30 minutes before the bot's guard read it and since the last close:
  //   the guard is quiet then, docs/chatbots.md "Guards"). A held conversation's inbound waits for nobody.
  await tx.$executeRawUnsafe(
    `UPDATE "SupportPeriod" AS p SET
       "inboundCount" = p."inboundCount" + s.n,
       "startedAt" = LEAST(p."startedAt", s.at),
       "waitingSince" = CASE
         WHEN p."waitingSince" IS NOT NULL THEN LEAST(p."waitingSince", GREATEST(s.at, c."handoffAt"))
         WHEN c."handoffAt" IS NOT NULL OR p."replyCount" > 0
           OR NOT EXISTS (SELECT 1 FROM "Chatbot" b WHERE b."activeSenderId" = c."senderId")
           OR EXISTS (SELECT 1 FROM "ConversationMessage" m JOIN "Message" mm ON mm."id" = m."messageId"
             WHERE m."conversationId" = c."id" AND ${PERSON_REPLY_SQL}
               AND m."createdAt" BETWEEN s.decided - interval '${PERSON_HOLDS_MS} milliseconds' AND s.until
               AND m."createdAt" > COALESCE(${lastCloseSql('c."id"')}, '-infinity'::timestamp))
         THEN s.at
         ELSE NULL END
     FROM (SELECT u.conv, u.n, ${NOT_BEFORE_LAST_CLOSE} AS at, u.decided::timestamp(3) AS decided,
         u.until::timestamp(3) AS until
       FROM unnest($1::text[], $2::int4[], $3::text[], $4::text[], $5::text[]) AS u(conv, n, at, decided, until)) s
     JOIN "Conversation" c ON c."id" = s.conv
     WHERE p."conversationId" = s.conv AND p."resolvedAt" IS NULL`,
    arrivals.map((a) => a.conversationId),
    arrivals.map((a) => a.count),
    arrivals.map((a) => iso(a.at)),
    arrivals.map((a) => iso(a.decidedAt ?? a.at)),
    // Live, every reply the guard can see counts, as in its query (chatbots/runner.ts), whatever
    // the clock of the instance that stamped it; a replay's later replies are in the table already.
    arrivals.map((a) => (a.decidedAt ? "infinity" : iso(a.at))),
  );
}

/** A chatbot handed the conversation to a person: its open period waits from then (unless it already does). */
export async function recordHandoff(tx: Tx, conversationId: string, at: Date): Promise<void> {
  await recordHandoffs(tx, [{ conversationId, at }]);
}

/** Hand-offs of several conversations at once (recordHandoff's statement; the demo's history replays them in bulk). */
export async function recordHandoffs(tx: Tx, handoffs: { conversationId: string; at: Date }[]): Promise<void> {
  if (handoffs.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE "SupportPeriod" AS p SET "waitingSince" = s.at::timestamp(3)
     FROM unnest($1::text[], $2::text[]) AS s(conv, at)
     WHERE p."conversationId" = s.conv AND p."resolvedAt" IS NULL AND p."waitingSince" IS NULL`,
    handoffs.map((h) => h.conversationId),
    handoffs.map((h) => iso(h.at)),
  );
}

type Close = { conversationId: string; at: Date; closedBy: string | null };

/** Who closed a period that an automation rule closed (its `closedBy`; `automation` in the reports by member). */
export const RULE_CLOSER = "automation";

/** A close resolves the open period; `closedBy` is the member's email, null through the API, RULE_CLOSER for a rule. */
export async function recordClose(tx: Tx, conversationId: string, at: Date, closedBy: string | null): Promise<void> {
  await recordCloses(tx, [{ conversationId, at, closedBy }]);
}

/** Closes of several conversations at once (recordClose's statement; the demo's history replays them in bulk). */
export async function recordCloses(tx: Tx, closes: Close[]): Promise<void> {
  if (closes.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE "SupportPeriod" AS p SET "resolvedAt" = s.at::timestamp(3), "waitingSince" = NULL,
       "resolutionSeconds" = GREATEST(0, floor(extract(epoch FROM s.at::timestamp(3) - p."startedAt")))::int,
       "resolutionBusinessSeconds" = switchboard_business_seconds(p."startedAt", s.at::timestamp(3),
         (SELECT cu."businessHours" FROM "Customer" cu WHERE cu."id" = p."customerId")::jsonb),
       "closedBy" = s.by
     FROM unnest($1::text[], $2::text[], $3::text[]) AS s(conv, at, by)
     WHERE p."conversationId" = s.conv AND p."resolvedAt" IS NULL`,
    closes.map((c) => c.conversationId),
    closes.map((c) => iso(c.at)),
    closes.map((c) => c.closedBy),
  );
}

/** Per row of `conv`: when the reply was made, who made it, and the id its response row would take. */
type ReplyValues = { at: Prisma.Sql; responder: Prisma.Sql; responseId: Prisma.Sql };

function replyCtes(v: ReplyValues): Prisma.Sql {
  return Prisma.sql`, support_wait AS (
      SELECT p."id", p."waitingSince" AS waited, p."firstResponseAt" IS NULL AS first,
        ${v.at} AS at, ${v.responder}::text AS responder, ${v.responseId}::text AS rid,
        switchboard_business_seconds(p."waitingSince", ${v.at},
          (SELECT cu."businessHours" FROM "Customer" cu WHERE cu."id" = p."customerId")::jsonb) AS business
      FROM "SupportPeriod" p JOIN conv ON p."conversationId" = conv."id" WHERE p."resolvedAt" IS NULL
    ), support_period AS (
      UPDATE "SupportPeriod" AS p SET "replyCount" = p."replyCount" + 1, "waitingSince" = NULL,
        "firstResponseAt" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN w.at ELSE p."firstResponseAt" END,
        "firstResponseSeconds" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN GREATEST(0, floor(extract(epoch FROM w.at - p."waitingSince")))::int ELSE p."firstResponseSeconds" END,
        "firstResponseBusinessSeconds" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN w.business ELSE p."firstResponseBusinessSeconds" END,
        "firstResponder" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN w.responder ELSE p."firstResponder" END
      FROM support_wait w WHERE p."id" = w."id"
      RETURNING p."id", p."customerId", p."senderId", w.waited, w.first, w.at, w.responder, w.rid, w.business
    ), support_response AS (
      INSERT INTO "SupportResponse" ("id", "customerId", "senderId", "periodId", "first", "waitedFrom",
        "respondedAt", "seconds", "businessSeconds", "responder")
      SELECT u.rid, u."customerId", u."senderId", u."id", u.first,
        u.waited, u.at, GREATEST(0, floor(extract(epoch FROM u.at - u.waited)))::int, u.business, u.responder
      FROM support_period u WHERE u.waited IS NOT NULL
      ON CONFLICT ("periodId", "waitedFrom") DO NOTHING
    )`;
}

/**
 * A person's reply, as CTEs for the statement that stores an outbound message
 * (lib/domains/conversations/outbound.ts, after its `conv` CTE): the open period counts it and
 * stops waiting; a wait it ends becomes a response row (the period's first, or a next one).
 * Two replies at once may both read the wait from the statement's snapshot; the response is
 * unique per (period, wait start), so only one is recorded. `responder`: the member's email, or "api".
 */
export function personReplySql(at: Prisma.Sql, responder: string): Prisma.Sql {
  return replyCtes({ at, responder: Prisma.sql`${responder}`, responseId: Prisma.sql`${newId("sr_")}` });
}

type PersonReply = { conversationId: string; at: Date; responder: string };

/**
 * People's replies to several conversations at once, at most one per conversation: the same
 * CTEs as personReplySql over a `conv` of the conversations (the demo's history replays its
 * replies in bulk; its messages are written beside).
 */
export async function recordPersonReplies(tx: Tx, replies: PersonReply[]): Promise<void> {
  if (replies.length === 0) return;
  const conv = Prisma.sql`conv AS (
      SELECT s.id, s.at::timestamp(3) AS at, s.responder, s.rid
      FROM unnest(${replies.map((r) => r.conversationId)}::text[], ${replies.map((r) => iso(r.at))}::text[],
        ${replies.map((r) => r.responder)}::text[], ${newIds("sr_", replies.length)}::text[]) AS s(id, at, responder, rid)
    )`;
  const values = { at: Prisma.sql`conv.at`, responder: Prisma.sql`conv.responder`, responseId: Prisma.sql`conv.rid` };
  await tx.$queryRaw`WITH ${conv}${replyCtes(values)} SELECT count(*)::int AS n FROM support_period`;
}

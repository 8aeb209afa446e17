// The support figures, written as they happen (docs/reports.md "Definitions"): a conversation's
// period opens at its first inbound (a later inbound after a close opens another, marked
// reopened), an inbound that waits for a person starts its wait (not while a chatbot holds
// the conversation: then the hand-off starts it), a person's reply (a member in the inbox or
// the API; never a chatbot, a rule or a broadcast) ends the wait and is recorded as the
// period's first response or a next one, and a close resolves the period. Each runs in the
// transaction or statement of the change it follows, so the figures never disagree with the
// thread; the reports read these indexed rows (report.ts).
import type { Tx } from "@/lib/db";
import { newId, newIds } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";

export type InboundArrival = {
  conversationId: string;
  customerId: string;
  senderId: string;
  /** The earliest of the new inbound messages of this conversation in the batch. */
  at: Date;
  /** How many new inbound messages. */
  count: number;
};

const iso = (d: Date) => d.toISOString();

/**
 * New inbound messages (lib/domains/conversations/inbound.ts, the conversations locked):
 * a period opens where none is open, and the oldest waiting inbound is kept.
 */
export async function recordInbound(tx: Tx, arrivals: InboundArrival[]): Promise<void> {
  if (arrivals.length === 0) return;
  const ids = newIds("sp_", arrivals.length);
  await tx.$executeRawUnsafe(
    `INSERT INTO "SupportPeriod" ("id", "customerId", "senderId", "conversationId", "startedAt", "reopened")
     SELECT s.id, s.customer, s.sender, s.conv, s.at::timestamp(3),
       EXISTS (SELECT 1 FROM "SupportPeriod" q WHERE q."conversationId" = s.conv)
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS s(id, customer, sender, conv, at)
     WHERE NOT EXISTS (SELECT 1 FROM "SupportPeriod" q WHERE q."conversationId" = s.conv AND q."resolvedAt" IS NULL)`,
    ids,
    arrivals.map((a) => a.customerId),
    arrivals.map((a) => a.senderId),
    arrivals.map((a) => a.conversationId),
    arrivals.map((a) => iso(a.at)),
  );
  // A chatbot holds a conversation while its sender has an active bot and nobody took over
  // (no hand-off, no person's reply yet in this period): its inbound waits for nobody.
  await tx.$executeRawUnsafe(
    `UPDATE "SupportPeriod" AS p SET
       "inboundCount" = p."inboundCount" + s.n,
       "startedAt" = LEAST(p."startedAt", s.at::timestamp(3)),
       "waitingSince" = CASE
         WHEN p."waitingSince" IS NOT NULL THEN LEAST(p."waitingSince", s.at::timestamp(3))
         WHEN c."handoffAt" IS NOT NULL OR p."replyCount" > 0
           OR NOT EXISTS (SELECT 1 FROM "Chatbot" b WHERE b."activeSenderId" = c."senderId")
         THEN s.at::timestamp(3)
         ELSE NULL END
     FROM unnest($1::text[], $2::int4[], $3::text[]) AS s(conv, n, at)
     JOIN "Conversation" c ON c."id" = s.conv
     WHERE p."conversationId" = s.conv AND p."resolvedAt" IS NULL`,
    arrivals.map((a) => a.conversationId),
    arrivals.map((a) => a.count),
    arrivals.map((a) => iso(a.at)),
  );
}

/** A chatbot handed the conversation to a person: its open period waits from then (unless it already does). */
export async function recordHandoff(tx: Tx, conversationId: string, at: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE "SupportPeriod" SET "waitingSince" = ${iso(at)}::timestamp(3)
    WHERE "conversationId" = ${conversationId} AND "resolvedAt" IS NULL AND "waitingSince" IS NULL`;
}

/** A close resolves the open period; `closedBy` is the member's email, null through the API. */
export async function recordClose(tx: Tx, conversationId: string, at: Date, closedBy: string | null): Promise<void> {
  await tx.$executeRaw`
    UPDATE "SupportPeriod" SET "resolvedAt" = ${iso(at)}::timestamp(3), "waitingSince" = NULL,
      "resolutionSeconds" = GREATEST(0, floor(extract(epoch FROM ${iso(at)}::timestamp(3) - "startedAt")))::int,
      "closedBy" = ${closedBy}
    WHERE "conversationId" = ${conversationId} AND "resolvedAt" IS NULL`;
}

/**
 * A person's reply, as CTEs for the statement that stores an outbound message
 * (lib/domains/conversations/outbound.ts, after its `conv` CTE): the open period counts it and
 * stops waiting; a wait it ends becomes a response row (the period's first, or a next one).
 * Two replies at once may both read the wait from the statement's snapshot; the response is
 * unique per (period, wait start), so only one is recorded. `responder`: the member's email, or "api".
 */
export function personReplySql(at: Prisma.Sql, responder: string): Prisma.Sql {
  return Prisma.sql`, support_wait AS (
      SELECT p."id", p."waitingSince" AS waited, p."firstResponseAt" IS NULL AS first
      FROM "SupportPeriod" p JOIN conv ON p."conversationId" = conv."id" WHERE p."resolvedAt" IS NULL
    ), support_period AS (
      UPDATE "SupportPeriod" AS p SET "replyCount" = p."replyCount" + 1, "waitingSince" = NULL,
        "firstResponseAt" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN ${at} ELSE p."firstResponseAt" END,
        "firstResponseSeconds" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN GREATEST(0, floor(extract(epoch FROM ${at} - p."waitingSince")))::int ELSE p."firstResponseSeconds" END,
        "firstResponder" = CASE WHEN p."firstResponseAt" IS NULL AND p."waitingSince" IS NOT NULL
          THEN ${responder} ELSE p."firstResponder" END
      FROM support_wait w WHERE p."id" = w."id"
      RETURNING p."id", p."customerId", p."senderId", w.waited, w.first
    ), support_response AS (
      INSERT INTO "SupportResponse" ("id", "customerId", "senderId", "periodId", "first", "waitedFrom",
        "respondedAt", "seconds", "responder")
      SELECT ${newId("sr_")}, u."customerId", u."senderId", u."id", u.first,
        u.waited, ${at}, GREATEST(0, floor(extract(epoch FROM ${at} - u.waited)))::int, ${responder}
      FROM support_period u WHERE u.waited IS NOT NULL
      ON CONFLICT ("periodId", "waitedFrom") DO NOTHING
    )`;
}

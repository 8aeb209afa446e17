// The send path's statements on the Message table (docs/messaging.md "Write, call, complete"):
// a send writes its row ("sending", or "queued" for the reconnect queue) before the provider
// call and completes it with the outcome after; rows a crash left "sending" become "unknown".
// The insert and the completion are CTEs: the send composes each with its thread entry, its
// Idempotency-Key link and its live notice into one statement (lib/domains/messaging/message-store.ts).
import { hotRows } from "@/lib/db";
import { type Message, Prisma } from "@/lib/generated/prisma/client";

/** The status of a row whose provider call has not been answered yet. */
export const SENDING = "sending";

/** `m AS (INSERT INTO "Message" ... RETURNING "id")`: the row as given, its timestamps `at` (ISO, UTC). */
export function insertMessageCte(row: Message, at: string): Prisma.Sql {
  return Prisma.sql`m AS (INSERT INTO "Message" ("id", "customerId", "senderId", "providerMessageId", "recipient", "type", "templateName",
      "templateLanguage", "pricingCategory", "sendRoute", "directSendCategory", "directSendTemplateName", "ttlSeconds",
      "metaTemplateId", "broadcastId", "status", "queued", "attempts", "errorCode", "errorMessage", "payload", "mediaId", "createdAt", "updatedAt")
    VALUES (${row.id}, ${row.customerId}, ${row.senderId}, ${row.providerMessageId}, ${row.recipient}, ${row.type},
      ${row.templateName}, ${row.templateLanguage}, ${row.pricingCategory}, ${row.sendRoute}, ${row.directSendCategory},
      ${row.directSendTemplateName}, ${row.ttlSeconds}::int, ${row.metaTemplateId}, ${row.broadcastId}, ${row.status}, ${row.queued},
      ${row.attempts}::int, ${row.errorCode}::int, ${row.errorMessage}, ${JSON.stringify(row.payload)}::jsonb, ${row.mediaId},
      ${at}::timestamptz AT TIME ZONE 'UTC', ${at}::timestamptz AT TIME ZONE 'UTC') RETURNING "id")`;
}

/** The columns a send's outcome sets (lib/domains/messaging/dispatch.ts outcomeColumns). */
export type OutcomeColumns = {
  status: string;
  queued: boolean;
  attempts: number;
  providerMessageId?: string | null;
  errorCode?: number | null;
  errorMessage?: string | null;
};

/**
 * `u AS (UPDATE "Message" ... RETURNING "id", "customerId", "senderId", "status")`: the outcome of a
 * row still waiting for it ("sending", or "unknown" once the reconciliation gave it up).
 */
export function completeMessageCte(id: string, c: OutcomeColumns, at: string): Prisma.Sql {
  return Prisma.sql`u AS (UPDATE "Message" SET "status" = ${c.status}, "queued" = ${c.queued}, "attempts" = ${c.attempts}::int,
      "providerMessageId" = ${c.providerMessageId ?? null}, "errorCode" = ${c.errorCode ?? null}::int,
      "errorMessage" = ${c.errorMessage ?? null}, "updatedAt" = ${at}::timestamptz AT TIME ZONE 'UTC'
    WHERE "id" = ${id} AND "status" IN (${SENDING}, 'unknown')
    RETURNING "id", "customerId", "senderId", "status")`;
}

/**
 * Rows left "sending" since before `cutoff` (their process stopped between the provider call and
 * the completion) become "unknown", but those in `held` (outcomes a process still holds).
 */
export async function markInterruptedSends(cutoff: Date, held: readonly string[]): Promise<number> {
  const rows = await hotRows<{ id: string }>(Prisma.sql`
    UPDATE "Message" SET "status" = 'unknown',
      "errorMessage" = 'No provider outcome was recorded (the send was interrupted); read the message report before resending',
      "updatedAt" = now() AT TIME ZONE 'UTC'
    WHERE "status" = ${SENDING} AND "createdAt" < ${cutoff.toISOString()}::timestamptz AT TIME ZONE 'UTC'
      AND NOT ("id" = ANY(${[...held]}::text[]))
    RETURNING "id"`);
  return rows.length;
}

/**
 * `m AS (INSERT INTO "Message" ... RETURNING "id")` for many rows in one statement (a broadcast's
 * batch, lib/domains/messaging/send-batch.ts): one array per column, timestamps `at`. A row
 * whose id is taken is left out (not returned), so it cannot fail the others.
 */
export function insertMessagesCte(rows: Message[], at: string): Prisma.Sql {
  const col = <T>(f: (r: Message) => T) => rows.map(f);
  return Prisma.sql`m AS (INSERT INTO "Message" ("id", "customerId", "senderId", "providerMessageId", "recipient", "type", "templateName",
      "templateLanguage", "pricingCategory", "sendRoute", "directSendCategory", "directSendTemplateName", "ttlSeconds",
      "metaTemplateId", "broadcastId", "status", "queued", "attempts", "errorCode", "errorMessage", "payload", "mediaId", "createdAt", "updatedAt")
    SELECT r.id, r.cu, r.se, r.pid, r.rc, r.ty, r.tn, r.tl, r.pc, r.sr, r.dc, r.dt, r.ttl, r.mt, r.bi, r.st, r.qu, r.tries,
      r.ec, r.em, r.pl::jsonb, r.mi, ${at}::timestamptz AT TIME ZONE 'UTC', ${at}::timestamptz AT TIME ZONE 'UTC' FROM unnest(
      ${col((r) => r.id)}::text[], ${col((r) => r.customerId)}::text[], ${col((r) => r.senderId)}::text[],
      ${col((r) => r.providerMessageId)}::text[], ${col((r) => r.recipient)}::text[], ${col((r) => r.type)}::text[],
      ${col((r) => r.templateName)}::text[], ${col((r) => r.templateLanguage)}::text[], ${col((r) => r.pricingCategory)}::text[],
      ${col((r) => r.sendRoute)}::text[], ${col((r) => r.directSendCategory)}::text[], ${col((r) => r.directSendTemplateName)}::text[],
      ${col((r) => r.ttlSeconds)}::int[], ${col((r) => r.metaTemplateId)}::text[], ${col((r) => r.broadcastId)}::text[],
      ${col((r) => r.status)}::text[], ${col((r) => r.queued)}::boolean[], ${col((r) => r.attempts)}::int[],
      ${col((r) => r.errorCode)}::int[], ${col((r) => r.errorMessage)}::text[], ${col((r) => JSON.stringify(r.payload))}::text[],
      ${col((r) => r.mediaId)}::text[]
    ) AS r(id, cu, se, pid, rc, ty, tn, tl, pc, sr, dc, dt, ttl, mt, bi, st, qu, tries, ec, em, pl, mi) ORDER BY r.id
    ON CONFLICT ("id") DO NOTHING RETURNING "id")`;
}

/**
 * `u AS (UPDATE "Message" ... RETURNING ...)`: the outcomes of many rows in one statement (a
 * broadcast's batch), each as completeMessageCte's (only a row still "sending" or "unknown").
 */
export function completeMessagesCte(outcomes: { id: string; c: OutcomeColumns }[], at: string): Prisma.Sql {
  const col = <T>(f: (o: { id: string; c: OutcomeColumns }) => T) => outcomes.map(f);
  return Prisma.sql`u AS (UPDATE "Message" AS msg SET "status" = o.st, "queued" = o.qu, "attempts" = o.tries,
      "providerMessageId" = o.pid, "errorCode" = o.ec, "errorMessage" = o.em, "updatedAt" = ${at}::timestamptz AT TIME ZONE 'UTC'
    FROM unnest(${col((o) => o.id)}::text[], ${col((o) => o.c.status)}::text[], ${col((o) => o.c.queued)}::boolean[],
      ${col((o) => o.c.attempts)}::int[], ${col((o) => o.c.providerMessageId ?? null)}::text[],
      ${col((o) => o.c.errorCode ?? null)}::int[], ${col((o) => o.c.errorMessage ?? null)}::text[]) AS o(id, st, qu, tries, pid, ec, em)
    WHERE msg."id" = o.id AND msg."status" IN (${SENDING}, 'unknown')
    RETURNING msg."id", msg."customerId", msg."senderId", msg."status")`;
}

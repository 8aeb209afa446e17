// What other domains read of the Message table, each one statement: a broadcast's billed cost,
// the messaging limit's use (lib/domains/senders/limits.ts, lib/domains/broadcasts/messaging-limit.ts)
// and the thread's outbound messages (lib/domains/conversations/list-sql.ts). The reports' reads
// are in report-sql.ts.
import { db, hotRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** Billed cost per broadcast: the rates of its messages' billable records. */
export async function broadcastCosts(
  customerId: string,
  broadcastIds: readonly string[],
): Promise<Map<string, number>> {
  if (broadcastIds.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ id: string; cost: string }[]>(
    `SELECT m."broadcastId" AS id, COALESCE(SUM(b.rate) FILTER (WHERE b.billable), 0)::text AS cost
       FROM "Message" m JOIN "BillingRecord" b ON b."messageId" = m."providerMessageId"
      WHERE m."customerId" = $2 AND m."broadcastId" = ANY($1::text[]) GROUP BY 1`,
    [...broadcastIds],
    customerId,
  );
  return new Map(rows.map((r) => [r.id, Number(r.cost)]));
}

/**
 * Counted by the messaging limit: a message the provider took or may have taken. Not one refused at
 * the send (failed without a provider id: it reached nobody) nor one still queued.
 */
const COUNTS_FOR_LIMIT = Prisma.sql`m."status" <> 'queued' AND NOT (m."status" = 'failed' AND m."providerMessageId" IS NULL)`;

/**
 * The messaging limit's use of these senders at `now`: unique contacts messaged in the 24 hours
 * before it outside an open window (a contact who wrote within the 24 hours before a message had
 * one), and the last time each was messaged, of which the oldest. One read.
 */
export async function contactsReachedOutsideWindow(
  customerId: string,
  senderIds: readonly string[],
  since: Date,
  now: Date,
): Promise<{ used: number; oldest: Date | null }> {
  const [row] = await hotRows<{ used: number; oldest: Date | null }>(
    Prisma.sql`SELECT count(*)::int AS "used", min(t."last") AS "oldest" FROM (
      SELECT m."recipient", max(m."createdAt") AS "last" FROM "Message" m
      WHERE m."customerId" = ${customerId} AND m."senderId" = ANY(${[...senderIds]}::text[])
        AND m."createdAt" > ${since} AND m."createdAt" <= ${now}
        AND ${COUNTS_FOR_LIMIT}
        AND NOT EXISTS (
          SELECT 1 FROM "Conversation" c JOIN "ConversationMessage" cm ON cm."conversationId" = c."id"
          WHERE c."customerId" = ${customerId} AND c."senderId" = m."senderId" AND c."contactPhoneNumber" = m."recipient"
            AND cm."direction" = 'inbound' AND cm."createdAt" <= m."createdAt"
            AND cm."createdAt" > m."createdAt" - interval '24 hours')
      GROUP BY m."recipient") t`,
  );
  return { used: row?.used ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Which of these contacts the senders messaged since `since` (counted by the messaging limit). */
export async function contactsMessagedSince(
  customerId: string,
  senderIds: readonly string[],
  phones: readonly string[],
  since: Date,
): Promise<string[]> {
  const rows = await hotRows<{ phone: string }>(
    Prisma.sql`SELECT DISTINCT m."recipient" AS "phone" FROM "Message" m
      WHERE m."customerId" = ${customerId} AND m."senderId" = ANY(${[...senderIds]}::text[])
        AND m."recipient" = ANY(${[...phones]}::text[]) AND m."createdAt" > ${since} AND ${COUNTS_FOR_LIMIT}`,
  );
  return rows.map((r) => r.phone);
}

/** Of these provider ids, those a message holds. */
export async function providerIdsWithMessages(providerMessageIds: readonly string[]): Promise<Set<string>> {
  if (providerMessageIds.length === 0) return new Set();
  const rows = await hotRows<{ pid: string }>(
    Prisma.sql`SELECT "providerMessageId" AS "pid" FROM "Message" WHERE "providerMessageId" = ANY(${[...providerMessageIds]}::text[])`,
  );
  return new Set(rows.map((r) => r.pid));
}

/**
 * The thread's outbound messages (lib/domains/conversations/list-sql.ts): joined to its entries
 * `e` (their "messageId"), one statement for a page. Its columns are ThreadMessageColumns.
 */
export const THREAD_MESSAGE_JOIN = Prisma.sql`LEFT JOIN "Message" m ON m."id" = e."messageId"`;
export const THREAD_MESSAGE_COLUMNS = Prisma.sql`m."payload" AS "outPayload", m."status" AS "outStatus",
  m."providerMessageId" AS "outProviderMessageId", m."errorCode" AS "outErrorCode", m."errorMessage" AS "outErrorMessage"`;
export type ThreadMessageColumns = {
  outPayload: Record<string, unknown> | null;
  outStatus: string | null;
  outProviderMessageId: string | null;
  outErrorCode: number | null;
  outErrorMessage: string | null;
};

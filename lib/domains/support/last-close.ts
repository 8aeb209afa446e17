// When a conversation was last closed for good (docs/chatbots.md "Guards"): a close ends a
// chatbot's hand-off and a person's hold on the conversation, and the chatbot answers again.
// The conversation's own closedAt cannot say it: the contact's next message reopens it and clears
// closedAt, and a rule's snooze (docs/automation.md) sets it without closing anything for good.
// The support periods keep it: a close resolves the open period (periods.ts),
// a snooze resolves none, and the periods read a person's hold the same way (recordInbound). A
// conversation closed before the contact ever wrote (only our messages, no period) ended nothing:
// a person's message in it still holds the contact's answer for a person.
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Whether the close of conversation row `row` (a table name or alias, as SQL) ended its hand-off:
 * it is closed, and no period is open (the close resolved it; a snooze resolves none). Whatever
 * reopens it (the contact's message, a member, a send: inbound.ts, service.ts, outbound.ts) then
 * clears `handoffAt`: it waits for nobody any more, and the chatbot's next hand-off marks it again.
 */
export const handoffEndedByClose = (row: string): string => `${row}."status" = 'CLOSED'
  AND ${row}."handoffAt" <= ${row}."closedAt" AND NOT EXISTS (SELECT 1 FROM "SupportPeriod" ended
    WHERE ended."conversationId" = ${row}."id" AND ended."resolvedAt" IS NULL)`;

export type LastClose = { id: string; senderId: string; contactPhoneNumber: string; closedAt: Date };

/**
 * The last close of conversation `conv` (a column or value, as SQL), as a scalar subquery: the
 * latest `resolvedAt` of its periods, NULL if it was never closed for good. The latest in time, not
 * the latest period's: a close is stamped with the time its request began (recordCloses), so a
 * period opened by a message that took the lock in the meantime can end before it started, and a
 * period after it can start earlier still (late-message-period.test.ts). A conversation has few
 * periods, read along the (conversationId, startedAt) index. The one reading of the last close:
 * the chatbot's guard (lastCloses), the periods' start and a person's hold (periods.ts recordInbound).
 */
export const lastCloseSql = (conv: string): string =>
  `(SELECT max(lp."resolvedAt") FROM "SupportPeriod" lp WHERE lp."conversationId" = ${conv})`;

const lastCloses = (tx: Tx, where: Prisma.Sql): Promise<LastClose[]> =>
  tx.$queryRaw<LastClose[]>(Prisma.sql`
    SELECT * FROM (SELECT c."id", c."senderId", c."contactPhoneNumber", ${Prisma.raw(lastCloseSql('c."id"'))} AS "closedAt"
      FROM "Conversation" c WHERE ${where}) closes
     WHERE closes."closedAt" IS NOT NULL`);

/** The last closes of the conversations of these senders with these contacts (those ever closed). */
export const lastClosesOfPairs = (tx: Tx, senderIds: string[], contacts: string[]): Promise<LastClose[]> =>
  lastCloses(
    tx,
    Prisma.sql`c."senderId" = ANY(${senderIds}::text[]) AND c."contactPhoneNumber" = ANY(${contacts}::text[])`,
  );

/** The conversation's last close, or null if it was never closed for good. */
export async function lastCloseOf(tx: Tx, conversationId: string): Promise<Date | null> {
  const [row] = await lastCloses(tx, Prisma.sql`c."id" = ${conversationId}`);
  return row?.closedAt ?? null;
}

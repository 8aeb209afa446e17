// The SQL of the conversation list and the thread, built in one place so that the index
// test (conversation-indexes.test.ts) explains exactly what the services run. Every list
// is one range scan of a Conversation index (see prisma/schema.prisma) in its order; the
// page is cut from the ids first (a deferred join), then its rows are read by primary key.

import { type PageInput, skipTake } from "@/lib/core/pagination";
import { allowedSenderIds, type Principal } from "@/lib/domains/auth/principal";
import { phoneSearchTerm } from "@/lib/domains/contacts/search";
import { THREAD_MEDIA_COLUMNS, THREAD_MEDIA_JOIN } from "@/lib/domains/media/reads";
import { THREAD_MESSAGE_COLUMNS, THREAD_MESSAGE_JOIN } from "@/lib/domains/messages/reads";
import { Prisma } from "@/lib/generated/prisma/client";
import { SHOWN_AS_LINE } from "./reactions";
import type { ConversationStatus, InboxOrder } from "./schemas";

/** `assigneeId`: a member's id (the conversations assigned to them), null (unassigned), absent (any). */
export type ListFilters = {
  status?: ConversationStatus;
  unread?: boolean;
  waiting?: boolean;
  search?: string;
  assigneeId?: string | null;
  /** A label's name (whatever the case): the conversations carrying it. */
  label?: string;
};

/**
 * The senders a list, count or look-up covers: the resolved sender, else every sender the
 * principal may see (a number-scoped token's one, a limited member's: docs/members.md);
 * null is every sender of the account, [] none.
 */
export function senderScope(p: Principal, senderId: string | undefined): readonly string[] | null {
  const allowed = allowedSenderIds(p);
  if (senderId) return allowed && !allowed.includes(senderId) ? [] : [senderId];
  return allowed;
}

/** The scope as a condition on `column` (one sender: an equality, as the indexes expect), or null. */
export function senderScopeCondition(
  p: Principal,
  senderId: string | undefined,
  column: Prisma.Sql = Prisma.sql`c."senderId"`,
): Prisma.Sql | null {
  const scope = senderScope(p, senderId);
  if (scope === null) return null;
  if (scope.length === 1) return Prisma.sql`${column} = ${scope[0]}`;
  if (scope.length === 0) return Prisma.sql`false`;
  return Prisma.sql`${column} = ANY(${[...scope]}::text[])`;
}

function listWhere(p: Principal, senderId: string | undefined, f: ListFilters): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`c."customerId" = ${p.customerId}`];
  const scope = senderScopeCondition(p, senderId);
  if (scope) parts.push(scope);
  if (f.status) parts.push(Prisma.sql`c."status" = ${f.status}::"ConversationStatus"`);
  if (f.unread) parts.push(Prisma.sql`c."unread" = true`);
  if (f.assigneeId === null) parts.push(Prisma.sql`c."assigneeId" IS NULL`);
  else if (f.assigneeId !== undefined) parts.push(Prisma.sql`c."assigneeId" = ${f.assigneeId}`);
  // Few conversations wait at once: a filter on the scan, not an index of its own.
  if (f.waiting) parts.push(Prisma.sql`c."handoffAt" IS NOT NULL`);
  // By the (labelId, conversationId) index; a name that is no label matches nothing.
  if (f.label !== undefined) {
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM "ConversationLabel" cl JOIN "Label" l ON l."id" = cl."labelId"
      WHERE cl."conversationId" = c."id" AND l."customerId" = ${p.customerId} AND l."nameKey" = ${f.label.trim().toLowerCase()})`);
  }
  const term = f.search?.trim();
  if (term) {
    const phone = phoneSearchTerm(term);
    const like = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    parts.push(
      phone && /^\+?\d+$/.test(phone)
        ? Prisma.sql`c."contactPhoneNumber" LIKE ${`%${phone.replace(/^\+/, "")}%`}`
        : Prisma.sql`(c."contactName" ILIKE ${like} OR c."contactPhoneNumber" LIKE ${like})`,
    );
  }
  return Prisma.join(parts, " AND ");
}

const ORDER: Record<InboxOrder, Prisma.Sql> = {
  recent: Prisma.sql`c."lastMessageAt" DESC, c."id" DESC`,
  inbox: Prisma.sql`c."unread" DESC, c."lastMessageAt" DESC, c."id" DESC`,
  // The (customerId, slaDueAt, id) index serves it unfiltered; with filters the matches are sorted.
  due: Prisma.sql`c."slaDueAt" ASC NULLS LAST, c."lastMessageAt" DESC, c."id" DESC`,
};

export function conversationListSql(
  p: Principal,
  senderId: string | undefined,
  f: ListFilters & PageInput,
  order: InboxOrder,
): { ids: Prisma.Sql; page: Prisma.Sql; count: Prisma.Sql } {
  const where = listWhere(p, senderId, f);
  const { skip, take } = skipTake(f);
  const ids = Prisma.sql`SELECT c."id" FROM "Conversation" c WHERE ${where}
    ORDER BY ${ORDER[order]} LIMIT ${take} OFFSET ${skip}`;
  const page = Prisma.sql`SELECT ${CONVERSATION_COLUMNS} FROM (${ids}) ids
    JOIN "Conversation" c ON c."id" = ids."id" JOIN "Sender" s ON s."id" = c."senderId" ${ASSIGNEE_JOIN}
    ORDER BY ${ORDER[order]}`;
  const count = Prisma.sql`SELECT count(*)::int AS total FROM "Conversation" c WHERE ${where}`;
  return { ids, page, count };
}

/** One conversation by uid within the principal's (and the resolved sender's) scope. */
export function conversationByUidSql(p: Principal, senderId: string | undefined, uid: string): Prisma.Sql {
  const scope = senderScopeCondition(p, senderId);
  return Prisma.sql`SELECT ${CONVERSATION_COLUMNS} FROM "Conversation" c JOIN "Sender" s ON s."id" = c."senderId"
    ${ASSIGNEE_JOIN} WHERE c."id" = ${uid} AND c."customerId" = ${p.customerId}
    ${scope ? Prisma.sql`AND ${scope}` : Prisma.empty}`;
}

export const CONVERSATION_COLUMNS = Prisma.sql`c."id", c."customerId", c."senderId", c."contactPhoneNumber",
  c."contactName", c."status"::text AS "status", c."unreadCount", c."lastMessageAt", c."lastInboundAt",
  c."windowExpiresAt", c."lastMessagePreview", c."closedAt", c."handoffAt", c."createdAt", c."updatedAt",
  s."phoneNumber" AS "senderPhoneNumber", s."phoneNumberId",
  EXISTS (SELECT 1 FROM "BlacklistEntry" b
    WHERE b."senderId" = c."senderId" AND b."phoneNumber" = c."contactPhoneNumber") AS "blacklisted",
  c."assigneeId", a."email" AS "assigneeEmail", a."name" AS "assigneeName",
  sp."firstResponseSeconds", sp."resolutionSeconds",
  c."slaPolicyId", c."slaFirstResponseDueAt", c."slaNextResponseDueAt", c."slaResolutionDueAt",
  ARRAY(SELECT DISTINCT b."target" FROM "SlaBreach" b WHERE b."conversationId" = c."id" AND b."periodId" = sp."id"
    ORDER BY b."target") AS "slaBreaches",
  ARRAY(SELECT l."name" FROM "ConversationLabel" cl JOIN "Label" l ON l."id" = cl."labelId"
    WHERE cl."conversationId" = c."id" ORDER BY l."nameKey" COLLATE "C", l."name" COLLATE "C") AS "labels"`;

/**
 * The current support period's figures (CONVERSATION_COLUMNS' `sp`), by the index on
 * (conversationId, startedAt): every query selecting the columns joins it.
 */
const SUPPORT_PERIOD_JOIN = Prisma.sql`LEFT JOIN LATERAL (SELECT p."id", p."firstResponseSeconds", p."resolutionSeconds"
  FROM "SupportPeriod" p WHERE p."conversationId" = c."id" ORDER BY p."startedAt" DESC LIMIT 1) sp ON true`;

/** The assignee's email and name (CONVERSATION_COLUMNS' `a`), joined by primary key. */
const ASSIGNEE_JOIN = Prisma.sql`LEFT JOIN "User" a ON a."id" = c."assigneeId" ${SUPPORT_PERIOD_JOIN}`;

/**
 * A thread page, newest first, with each outbound entry's message (lib/domains/messages/reads.ts)
 * and each media entry's file (lib/domains/media/reads.ts).
 */
export function threadSql(
  customerId: string,
  conversationId: string,
  q: PageInput,
): { ids: Prisma.Sql; page: Prisma.Sql; count: Prisma.Sql } {
  const { skip, take } = skipTake(q);
  const ids = Prisma.sql`SELECT e."id" FROM "ConversationMessage" e
    WHERE e."conversationId" = ${conversationId} AND e."customerId" = ${customerId} AND ${SHOWN_AS_LINE}
    ORDER BY e."createdAt" DESC, e."id" DESC LIMIT ${take} OFFSET ${skip}`;
  const page = Prisma.sql`SELECT e."id", e."conversationId", e."direction", e."type", e."content", e."providerMessageId",
      e."messageId", e."sentBy", e."sentByLabel", e."replyTo", e."reactions", e."createdAt", ${THREAD_MESSAGE_COLUMNS}, ${THREAD_MEDIA_COLUMNS}
    FROM (${ids}) ids JOIN "ConversationMessage" e ON e."id" = ids."id"
    ${THREAD_MESSAGE_JOIN}
    ${THREAD_MEDIA_JOIN}
    ORDER BY e."createdAt" DESC, e."id" DESC`;
  const count = Prisma.sql`SELECT count(*)::int AS total FROM "ConversationMessage" e
    WHERE e."conversationId" = ${conversationId} AND e."customerId" = ${customerId} AND ${SHOWN_AS_LINE}`;
  return { ids, page, count };
}

// Conversations for the API and the dashboard inbox: list, read, thread, update (status,
// mark read). Every function takes the Principal first and the resolved sender's id (or
// undefined: every sender the principal may see); the tenant is in every WHERE.

import { ApiError } from "@/lib/core/errors";
import type { PageInput } from "@/lib/core/pagination";
import { SwrCache } from "@/lib/core/swr-cache";
import { db, hotRows, type Tx } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { EventInput } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { publishLive } from "@/lib/domains/live/publish";
import { refreshSla } from "@/lib/domains/sla/timers";
import { askCsatAtClose } from "@/lib/domains/support/csat";
import { handoffEndedByClose } from "@/lib/domains/support/last-close";
import { recordClose } from "@/lib/domains/support/periods";
import { Prisma } from "@/lib/generated/prisma/client";
import { actorLabel, assigneeFor, setAssignee } from "./assignment";
import { closedEvent, emitConversationEvents } from "./events";
import {
  conversationByUidSql,
  conversationListSql,
  type ListFilters,
  senderScope,
  senderScopeCondition,
  threadSql,
} from "./list-sql";
import type { ConversationPatch, InboxOrder } from "./schemas";
import type { ConversationRow, ThreadRow } from "./serializers";

export type ConversationPage = { conversations: ConversationRow[]; total: number };
export type ThreadPage = { conversation: ConversationRow; messages: ThreadRow[]; total: number };

/** Conversation uids are conv_<hex>; anything else cannot exist. */
export const isConversationUid = (uid: string) => /^conv_[0-9a-f]{1,64}$/.test(uid);

export const conversationNotFound = (uid: string) =>
  new ApiError("CONVERSATION_NOT_FOUND", "Conversation not found for this account and sender", {
    conversationUid: uid,
  });

// An exact COUNT(*) over 100,000 conversations costs ~10 ms of database time per request
// (docs/benchmarks.md): as billing does (lib/domains/billing/count-cache.ts), a partial page states
// the total itself, and a full page reuses a count shared for a few seconds, recounted when
// it contradicts the page just read.
const counts = new SwrCache<number>({ ttlMs: 5_000, maxStaleMs: 60_000, maxEntries: 2_000 });

/** The total of a page: exact from a partial page, else the shared count (see above). */
export async function pageTotal(
  key: string,
  page: PageInput,
  rows: number,
  count: () => Promise<number>,
): Promise<number> {
  const offset = (page.page - 1) * page.limit;
  const seen = rows > 0 ? offset + rows : 0;
  if ((rows > 0 && rows < page.limit) || (rows === 0 && page.page === 1)) return seen;
  const n = await counts.get(key, count, (v) => (rows > 0 ? v >= seen : v <= offset));
  return Math.max(n, seen);
}

const countOf = async (sql: Prisma.Sql) => (await hotRows<{ total: number }>(sql))[0]?.total ?? 0;

/** The list filters as given: `assignee` is a member's email or `none` (docs/conversations.md). */
export type ListQuery = Omit<ListFilters, "assigneeId"> & { assignee?: string } & PageInput;

/** `none`: unassigned (null); an email: that member's id ("" for no member: matches nothing). */
async function assigneeFilter(customerId: string, assignee: string | undefined): Promise<string | null | undefined> {
  if (assignee === undefined) return undefined;
  if (assignee === "none") return null;
  const member = await db.user.findFirst({
    where: { customerId, email: assignee.toLowerCase() },
    select: { id: true },
  });
  return member?.id ?? "";
}

/** The list: "recent" (newest activity first, the API) or "inbox" (unread first, then newest). */
export async function listConversations(
  p: Principal,
  senderId: string | undefined,
  query: ListQuery,
  order: InboxOrder = "recent",
): Promise<ConversationPage> {
  const { assignee, ...rest } = query;
  const q = { ...rest, assigneeId: await assigneeFilter(p.customerId, assignee) };
  const { page, count } = conversationListSql(p, senderId, q, order);
  const conversations = await hotRows<ConversationRow>(page);
  const key = JSON.stringify([
    "list",
    p.customerId,
    senderScope(p, senderId) ?? null,
    q.status,
    q.unread,
    q.waiting ?? false,
    q.search,
    q.assigneeId,
    q.label?.toLowerCase(),
  ]);
  return { conversations, total: await pageTotal(key, q, conversations.length, () => countOf(count)) };
}

export async function getConversation(
  p: Principal,
  senderId: string | undefined,
  uid: string,
): Promise<ConversationRow> {
  if (!isConversationUid(uid)) throw conversationNotFound(uid);
  const [row] = await hotRows<ConversationRow>(conversationByUidSql(p, senderId, uid));
  if (!row) throw conversationNotFound(uid);
  return row;
}

/** A thread page, newest first (the inbox reverses it for display). */
export async function listThread(
  p: Principal,
  senderId: string | undefined,
  uid: string,
  q: PageInput,
): Promise<ThreadPage> {
  if (!isConversationUid(uid)) throw conversationNotFound(uid);
  const { page, count } = threadSql(p.customerId, uid, q);
  // The page carries the customer in its WHERE, so it may run beside the scope check; its
  // rows are used only when the conversation is in scope.
  const pending = hotRows<ThreadRow>(page);
  pending.catch(() => {});
  const conversation = await getConversation(p, senderId, uid);
  const messages = await pending;
  // A thread grows while it is read: its count is never shared.
  const offset = (q.page - 1) * q.limit;
  const partial = (messages.length > 0 && messages.length < q.limit) || (messages.length === 0 && q.page === 1);
  const total = partial ? (messages.length > 0 ? offset + messages.length : 0) : await countOf(count);
  return { conversation, messages, total };
}

/** Conversations with unread messages (the inbox badge): one index range scan. */
export async function unreadConversations(p: Principal, senderId?: string): Promise<number> {
  const scope = senderScopeCondition(p, senderId, Prisma.sql`"senderId"`);
  const [row] = await hotRows<{ total: number }>(
    Prisma.sql`SELECT count(*)::int AS total FROM "Conversation"
      WHERE "customerId" = ${p.customerId} ${scope ? Prisma.sql`AND ${scope}` : Prisma.empty}
      AND "unread" = true`,
  );
  return row?.total ?? 0;
}

/** conversation.changed for the open dashboards, in the writing transaction (docs/inbox.md "Live updates"). */
async function publishChanged(tx: Tx, customerId: string, where: Prisma.ConversationWhereInput): Promise<void> {
  const c = await tx.conversation.findFirst({
    where,
    select: { id: true, senderId: true, unreadCount: true, status: true },
  });
  if (!c) return;
  await publishLive(tx, customerId, [
    {
      kind: "conversation.changed",
      senderId: c.senderId,
      conversationUid: c.id,
      unreadCount: c.unreadCount,
      status: c.status,
    },
  ]);
}

/**
 * Applies {status?, markRead?, markUnread?, assignee?}. Closing an OPEN conversation emits
 * conversation.closed, a change of assignee conversation.assigned (an assignee who is no
 * member, or may not see the sender, is VALIDATION_FAILED and nothing is written); every
 * write carries the tenant and sender scope, then the row is read back.
 */
export async function updateConversation(
  p: Principal,
  senderId: string | undefined,
  uid: string,
  patch: ConversationPatch,
  actor: string | null = null,
): Promise<ConversationRow> {
  if (!isConversationUid(uid)) throw conversationNotFound(uid);
  const scope = senderScope(p, senderId);
  const where = { id: uid, customerId: p.customerId, ...(scope ? { senderId: { in: [...scope] } } : {}) };
  const now = new Date();
  const assignedBy = patch.assignee !== undefined ? await actorLabel(p) : null;
  const emitted = await db.$transaction(async (tx) => {
    const events: EventInput[] = [];
    /** Rows this patch changed: the open dashboards are told (docs/inbox.md "Live updates"). */
    let changed = 0;
    if (patch.assignee !== undefined) {
      const c = await tx.conversation.findFirst({ where, include: { sender: true } });
      if (!c) throw conversationNotFound(uid);
      const assignee = patch.assignee === null ? null : await assigneeFor(tx, p.customerId, c.senderId, patch.assignee);
      const event = await setAssignee(tx, c, assignee, assignedBy);
      if (event) {
        events.push(event);
        await publishLive(tx, p.customerId, [
          {
            kind: "conversation.assigned",
            senderId: c.senderId,
            conversationUid: c.id,
            assignee: assignee?.email ?? null,
          },
        ]);
      }
    }
    if (patch.markRead) {
      const { count } = await tx.conversation.updateMany({
        where: { ...where, OR: [{ unread: true }, { unreadCount: { gt: 0 } }] },
        data: { unreadCount: 0, unread: false },
      });
      changed += count;
    }
    // Unread again (to come back to it): its count stays when it has one, else 1.
    if (patch.markUnread) {
      await tx.conversation.updateMany({ where: { ...where, unreadCount: 0 }, data: { unreadCount: 1 } });
      const { count } = await tx.conversation.updateMany({ where, data: { unread: true } });
      changed += count;
    }
    if (patch.status === "OPEN") {
      // A hand-off its close ended waits no more once it is open again (last-close.ts).
      const closed = await tx.conversation.findFirst({ where: { ...where, status: "CLOSED" }, select: { id: true } });
      if (closed) {
        await tx.$executeRawUnsafe(
          `UPDATE "Conversation" AS c SET "handoffAt" = NULL WHERE c."id" = $1 AND ${handoffEndedByClose("c")}`,
          closed.id,
        );
      }
      const { count } = await tx.conversation.updateMany({
        where: { ...where, status: "CLOSED" },
        data: { status: "OPEN", closedAt: null },
      });
      changed += count;
    }
    if (patch.status === "CLOSED") {
      const { count } = await tx.conversation.updateMany({
        where: { ...where, status: "OPEN" },
        data: { status: "CLOSED", closedAt: now },
      });
      if (count > 0) {
        const c = await tx.conversation.findFirstOrThrow({ where, include: { sender: true } });
        events.push(closedEvent(c.sender, c, now, actor));
        await recordClose(tx, c.id, now, p.member?.email ?? null);
        // A person's close (a member, or the API) asks the contact for a rating when the
        // account has CSAT on (docs/reports.md "CSAT"); the operator's or the system's never does.
        if (p.via === "session" || p.via === "token") {
          const member = p.via === "session" ? { userId: p.userId, email: p.member.email } : null;
          await askCsatAtClose(tx, { customerId: p.customerId, conversationId: c.id, closedAt: now, member });
        }
        await refreshSla(tx, [c.id], false);
      }
      changed += count;
    }
    if (changed > 0) await publishChanged(tx, p.customerId, where);
    return events.length > 0 ? emitConversationEvents(tx, events) : 0;
  });
  if (emitted > 0) deliveriesQueued();
  return getConversation(p, senderId, uid);
}

export const markConversationRead = (p: Principal, senderId: string | undefined, uid: string) =>
  updateConversation(p, senderId, uid, { markRead: true });

/**
 * The provider's mark-as-read ({status: "read", message_id}) on the provider-compatible send
 * routes: the conversation holding that inbound message, received by this sender, is read.
 * The message (for the provider's call), or null when no inbound message of this sender and
 * account has that id.
 */
export async function markInboundRead(
  p: Principal,
  senderId: string,
  providerMessageId: string,
): Promise<{ conversationId: string; createdAt: Date } | null> {
  const found = await db.conversationMessage.findFirst({
    where: {
      providerMessageId,
      customerId: p.customerId,
      direction: "inbound",
      conversation: { senderId },
    },
    select: { conversationId: true, createdAt: true },
  });
  if (!found) return null;
  await markConversationRead(p, senderId, found.conversationId);
  return found;
}

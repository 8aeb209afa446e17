// Inbound messages into conversations, inside the callback processor's transaction
// (lib/ingest): the conversation is created or found by (sender, contact), the
// message is stored once per provider message id (a replayed callback stores and counts
// nothing), and for each new message the conversation's unread count, window
// (lastInboundAt + 24 h), preview and status (a new message reopens it) are refreshed.
// Opt-out and opt-in keywords are applied here too (opt-out.ts).
import type { Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import type { EventInput, EventSender } from "@/lib/domains/events/emit";
import type { LiveEvent } from "@/lib/domains/live/events";
import { publishLive } from "@/lib/domains/live/publish";
import { refreshSla } from "@/lib/domains/sla/timers";
import { applyCsatReplies } from "@/lib/domains/support/csat-replies";
import { handoffEndedByClose } from "@/lib/domains/support/last-close";
import { recordInbound } from "@/lib/domains/support/periods";
import { autoAssign } from "./auto-assign";
import { contentOf, previewOf } from "./content";
import { createdEvent } from "./events";
import { newConversationUid, newThreadMessageUid } from "./ids";
import { applyOptKeywords } from "./opt-out";
import { quotedProviderId, type ReplyTo, replyToOf, resolveQuotes } from "./quotes";
import { reactedProviderId, reactionEmoji, reactionPreview, setReactionSql } from "./reactions";

export type InboundMessage = {
  sender: EventSender;
  /** The provider message id. */
  id: string;
  /** E.164 */
  contact: string;
  contactName: string | null;
  at: Date;
  /** Where its entry sits in the thread: the arrival time within its provider second (lib/ingest/thread-time.ts). */
  threadAt: Date;
  type: string;
  /** The provider message object ({type, <type>: {...}, ...}). */
  body: Record<string, unknown>;
  /** A media message: the id of the file kept for it (lib/domains/media/inbound.ts), stored on its entry. */
  mediaId?: string;
};

export type InboundApplied = {
  /** Provider message id -> conversation uid, for every message (new or replayed). */
  conversationOf: Map<string, string>;
  /** Provider message id -> the message it quotes (its callback's context), for those that quote one. */
  replyToOf: Map<string, ReplyTo>;
  /**
   * conversation.created for the conversations this batch created, conversation.assigned for
   * those auto-assigned, conversation.csat_received for the survey answers.
   */
  events: EventInput[];
  /** Provider ids of the answers to a CSAT survey (a tap, its comment): no chatbot or rule sees them. */
  csatAnswers: Set<string>;
  /**
   * Provider ids of the messages stored by this batch. A replayed one was stored, with its
   * chatbot decision and rule jobs, by the transaction that first stored it: nothing more is
   * decided for it (its CSAT answer, for one, is no longer recognisable as such).
   */
  stored: Set<string>;
  /**
   * The moment the conversations were locked: the chatbots' guard decides on these messages as of
   * then (ingest/inbound.ts), and the support periods read a person's reply as the guard does
   * (periods.ts InboundArrival.decidedAt). A reply committed before the lock was stamped before
   * it (on one clock); one waiting for the lock commits after these messages.
   */
  decidedAt: Date;
};

const keyOf = (senderId: string, contact: string) => `${senderId}|${contact}`;
const iso = (d: Date) => d.toISOString();

export async function applyInbound(tx: Tx, items: InboundMessage[]): Promise<InboundApplied> {
  const applied: InboundApplied = {
    conversationOf: new Map(),
    replyToOf: new Map(),
    events: [],
    csatAnswers: new Set(),
    stored: new Set(),
    decidedAt: new Date(),
  };
  if (items.length === 0) return applied;
  // 1. Conversations: create the missing ones (first message of a contact), then lock all in id order.
  const firsts = new Map<string, InboundMessage>();
  for (const m of [...items].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const key = keyOf(m.sender.id, m.contact);
    if (!firsts.has(key)) firsts.set(key, m);
  }
  const newcomers = [...firsts.values()];
  const created = await tx.$queryRawUnsafe<{ id: string; senderId: string; contactPhoneNumber: string }[]>(
    `INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "contactName", "lastMessageAt",
       "createdAt", "updatedAt")
     SELECT t.id, t.customer, t.sender, t.contact, t.name, t.at::timestamp(3), ${NOW_UTC}, ${NOW_UTC}
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS t(id, customer, sender, contact, name, at)
     ON CONFLICT ("senderId", "contactPhoneNumber") DO NOTHING
     RETURNING "id", "senderId", "contactPhoneNumber"`,
    newcomers.map(() => newConversationUid()),
    newcomers.map((m) => m.sender.customerId),
    newcomers.map((m) => m.sender.id),
    newcomers.map((m) => m.contact),
    newcomers.map((m) => m.contactName),
    newcomers.map((m) => iso(m.at)),
  );
  const createdKeys = new Set(created.map((c) => keyOf(c.senderId, c.contactPhoneNumber)));
  const rows = await tx.$queryRawUnsafe<
    { id: string; senderId: string; contactPhoneNumber: string; createdAt: Date }[]
  >(
    `SELECT c."id", c."senderId", c."contactPhoneNumber", c."createdAt" FROM "Conversation" c
     JOIN unnest($1::text[], $2::text[]) AS k(sender, contact)
       ON c."senderId" = k.sender AND c."contactPhoneNumber" = k.contact
     ORDER BY c."id" FOR UPDATE OF c`,
    newcomers.map((m) => m.sender.id),
    newcomers.map((m) => m.contact),
  );
  applied.decidedAt = new Date();
  const convOf = new Map(rows.map((r) => [keyOf(r.senderId, r.contactPhoneNumber), r]));
  for (const m of items) {
    const c = convOf.get(keyOf(m.sender.id, m.contact));
    if (c) applied.conversationOf.set(m.id, c.id);
  }
  for (const key of createdKeys) {
    const c = convOf.get(key);
    const first = firsts.get(key);
    if (c && first) {
      applied.events.push(
        createdEvent(
          first.sender,
          {
            id: c.id,
            contactPhoneNumber: first.contact,
            contactName: first.contactName,
            createdAt: new Date(c.createdAt),
          },
          "inbound",
        ),
      );
    }
  }

  // 2. The messages, once per provider message id.
  const unique = [...new Map(items.map((m) => [m.id, m])).values()]
    .filter((m) => applied.conversationOf.has(m.id))
    .sort((a, b) => a.threadAt.getTime() - b.threadAt.getTime());
  // A quoted message (a quoted reply, a tap on buttons, a reaction's message) resolves inside
  // its own conversation only.
  const quotes = unique.flatMap((m) => {
    const quoted = reactedProviderId(m.type, m.body) ?? quotedProviderId(m.body);
    const conversationId = applied.conversationOf.get(m.id) ?? "";
    return quoted ? [{ id: m.id, customerId: m.sender.customerId, conversationId, providerMessageId: quoted }] : [];
  });
  const resolved = await resolveQuotes(tx, quotes);
  for (const q of quotes) applied.replyToOf.set(q.id, replyToOf(resolved, q.conversationId, q.providerMessageId));
  const stored = await tx.$queryRawUnsafe<{ providerMessageId: string }[]>(
    `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "content",
       "providerMessageId", "sentBy", "sentByLabel", "createdAt", "mediaId", "replyTo")
     SELECT t.id, t.customer, t.conv, 'inbound', t.type, t.content::jsonb, t.pmid, 'contact', t.name, t.at::timestamp(3),
       t.media, t.reply::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::text[]) AS t(id, customer, conv, type, content, pmid, name, at, media, reply)
     ON CONFLICT ("providerMessageId") DO NOTHING
     RETURNING "providerMessageId"`,
    unique.map(() => newThreadMessageUid()),
    unique.map((m) => m.sender.customerId),
    unique.map((m) => applied.conversationOf.get(m.id) ?? ""),
    unique.map((m) => m.type),
    unique.map((m) => JSON.stringify(contentOf(m.type, m.body))),
    unique.map((m) => m.id),
    unique.map((m) => m.contactName),
    unique.map((m) => iso(m.threadAt)),
    unique.map((m) => m.mediaId ?? null),
    unique.map((m) => {
      const replyTo = applied.replyToOf.get(m.id);
      return replyTo ? JSON.stringify(replyTo) : null;
    }),
  );
  const fresh = new Set(stored.map((s) => s.providerMessageId));
  const news = unique.filter((m) => fresh.has(m.id));
  applied.stored = fresh;
  if (news.length === 0) return applied;
  // A new reaction attaches to the message it reacts to (docs/messaging.md "Reactions"), in
  // the order they were made; a replayed one was not stored again and changes nothing.
  for (const m of news) {
    const target = m.type === "reaction" ? applied.replyToOf.get(m.id)?.messageId : null;
    if (!target) continue;
    const emoji = reactionEmoji(m.body);
    await tx.$executeRaw(
      setReactionSql({ entryId: target, customerId: m.sender.customerId, by: "contact", emoji, at: m.at }),
    );
  }

  // A CSAT survey's answers (docs/reports.md "CSAT") are stored with their survey; they
  // reopen nothing and start no support period.
  const csat = await applyCsatReplies(
    tx,
    news
      .filter((m) => m.type === "interactive" || m.type === "button" || m.type === "text")
      .map((m) => ({ ...m, conversationId: applied.conversationOf.get(m.id) ?? "" })),
  );
  applied.csatAnswers = csat.answers;
  applied.events.push(...csat.events);
  // A survey's answer and a reaction are no request (docs/reports.md "Definitions"): neither
  // reopens a closed conversation, opens a support period nor waits for a person. A 👍 to
  // "your order shipped" is not a question an SLA should time.
  const isRequest = (m: InboundMessage) => !csat.answers.has(m.id) && m.type !== "reaction";

  // 3. Per conversation: unread count, window, preview of the latest message, name, reopen
  // (unless every new message of it was a survey answer or a reaction).
  type Bump = { id: string; n: number; requests: number; last: InboundMessage; name: string | null };
  const bumps = new Map<string, Bump>();
  for (const m of news) {
    const id = applied.conversationOf.get(m.id) ?? "";
    const b = bumps.get(id) ?? { id, n: 0, requests: 0, last: m, name: null };
    b.n += 1;
    if (isRequest(m)) b.requests += 1;
    if (m.threadAt.getTime() >= b.last.threadAt.getTime()) b.last = m;
    b.name = m.contactName ?? b.name;
    bumps.set(id, b);
  }
  const list = [...bumps.values()];
  // Returns what the live updates need and the conversations auto-assignment should hand
  // out (unassigned, sender with autoAssign on): most senders have it off, and then nothing
  // more is read or locked.
  const bumped = await tx.$queryRawUnsafe<
    { id: string; customerId: string; senderId: string; unreadCount: number; autoAssign: boolean }[]
  >(
    `UPDATE "Conversation" AS c SET
       "unreadCount" = c."unreadCount" + s.n, "unread" = true,
       "lastInboundAt" = GREATEST(c."lastInboundAt", s.at::timestamp(3)),
       "windowExpiresAt" = GREATEST(c."lastInboundAt", s.at::timestamp(3)) + interval '24 hours',
       "lastMessagePreview" = CASE WHEN s.thread::timestamp(3) >= c."lastMessageAt" THEN s.preview ELSE c."lastMessagePreview" END,
       "lastMessageAt" = GREATEST(c."lastMessageAt", s.thread::timestamp(3)),
       "contactName" = COALESCE(s.name, c."contactName"),
       "status" = CASE WHEN s.reopen THEN 'OPEN' ELSE c."status" END,
       "closedAt" = CASE WHEN s.reopen THEN NULL ELSE c."closedAt" END,
       "handoffAt" = CASE WHEN s.reopen AND ${handoffEndedByClose("c")} THEN NULL ELSE c."handoffAt" END,
       "updatedAt" = ${NOW_UTC}
     FROM unnest($1::text[], $2::int4[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[])
       AS s(id, n, at, preview, name, thread, reopen)
     WHERE c."id" = s.id
     RETURNING c."id", c."customerId", c."senderId", c."unreadCount",
       (c."assigneeId" IS NULL AND EXISTS (SELECT 1 FROM "Sender" x
       WHERE x."id" = c."senderId" AND x."autoAssign")) AS "autoAssign"`,
    list.map((b) => b.id),
    list.map((b) => b.n),
    list.map((b) => iso(b.last.at)),
    list.map((b) => previewOfInbound(b.last, applied.replyToOf.get(b.last.id))),
    list.map((b) => b.name),
    // The list's order and preview follow the thread's (a message processed late, its
    // reaction to our message of the same second included); the window, the provider's time.
    list.map((b) => iso(b.last.threadAt)),
    list.map((b) => b.requests > 0),
  );
  // The support figures' periods and waits (docs/reports.md "Definitions").
  const earliest = new Map<string, Date>();
  for (const m of news) {
    if (!isRequest(m)) continue;
    const id = applied.conversationOf.get(m.id) ?? "";
    const seen = earliest.get(id);
    if (!seen || m.at < seen) earliest.set(id, m.at);
  }
  await recordInbound(
    tx,
    bumped.flatMap((c) => {
      const requests = bumps.get(c.id)?.requests ?? 0;
      return requests === 0
        ? []
        : [
            {
              conversationId: c.id,
              customerId: c.customerId,
              senderId: c.senderId,
              at: earliest.get(c.id) ?? new Date(),
              count: requests,
              decidedAt: applied.decidedAt,
            },
          ];
    }),
  );
  // Their SLA policy and due times (docs/reports.md "SLA policies").
  await refreshSla(
    tx,
    bumped.map((c) => c.id),
    true,
  );
  // The open dashboards learn of them when this transaction commits (docs/inbox.md "Live updates").
  const byCustomer = new Map<string, LiveEvent[]>();
  for (const c of bumped) {
    const events = byCustomer.get(c.customerId) ?? [];
    events.push({ kind: "message.created", senderId: c.senderId, conversationUid: c.id, unreadCount: c.unreadCount });
    byCustomer.set(c.customerId, events);
  }
  for (const [customerId, events] of byCustomer) await publishLive(tx, customerId, events);
  const assignable = new Set(bumped.filter((r) => r.autoAssign).map((r) => r.id));
  if (assignable.size > 0) {
    const unassigned = list
      .filter((b) => assignable.has(b.id))
      .map((b) => ({ id: b.id, contactPhoneNumber: b.last.contact, contactName: b.name, sender: b.last.sender }));
    applied.events.push(...(await autoAssign(tx, unassigned)));
  }
  await applyOptKeywords(
    tx,
    news.map((m) => ({ ...m, conversationId: applied.conversationOf.get(m.id) ?? "" })),
  );
  return applied;
}

/** The list's preview of an inbound message; a reaction names the message it reacts to. */
function previewOfInbound(m: InboundMessage, replyTo: ReplyTo | undefined): string {
  if (m.type !== "reaction") return previewOf(m.type, m.body);
  return reactionPreview(reactionEmoji(m.body), replyTo?.preview ?? null);
}

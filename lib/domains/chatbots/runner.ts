// Running chatbots, part 1 (docs/chatbots.md "How a reply is sent"): when inbound messages
// are applied, the sender's ACTIVE bot decides at most one reply to each, written as an
// outbox row IN THE SAME TRANSACTION (unique per inbound provider message id). The worker
// (worker.ts) sends the rows later, so a crash neither loses a reply (the row committed
// with the inbound) nor adds one (a replayed callback hits the unique key).

import { SwrCache } from "@/lib/core/swr-cache";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { notifyStatement } from "@/lib/db/wakeups";
import { markHandedOff } from "@/lib/domains/conversations/handoff";
import { type KeywordConfig, keywordAction } from "@/lib/domains/conversations/opt-out";
import { lastClosesOfPairs } from "@/lib/domains/support/last-close";
import { PERSON_REPLY_WHERE } from "@/lib/domains/support/person-reply";
import type { Chatbot, Prisma } from "@/lib/generated/prisma/client";
import { decideWithinBudget, outOfTime, type TimedDecision } from "./decide-within-budget";
import { guard, HANDOFF_MS, hasPatterns, REPLY_CAP } from "./engine";
import { configOf } from "./serializers";

/** What the bot needs to know about one applied inbound message. */
export type InboundForBot = {
  customerId: string;
  senderId: string;
  /** The sender's own number (a bot never answers itself). */
  senderPhone: string;
  providerMessageId: string;
  /** The contact, E.164. */
  from: string;
  /** The provider message type (text, image, reaction, ...). */
  type: string;
  /** The text a rule matches: the body, a caption, a button or list title; "" otherwise. */
  text: string;
  /** A tap on our buttons or a pick from our list: the reply id (reply_id rules match it). */
  replyId?: string | null;
  /** An opt-out or opt-in keyword (they win over bots); the sender's keywords decide when absent. */
  optKeyword?: boolean;
  /** When the conversation was last closed for good (closing ends a hand-off, last-close.ts); the snapshot's when absent. */
  closedAt?: Date | null;
};

/** The text of a provider message that rules match against. */
export function inboundText(message: Record<string, unknown>): string {
  const type = String(message.type ?? "").toLowerCase();
  const part = (message[type] ?? {}) as Record<string, unknown>;
  if (type === "text") return String(part.body ?? "");
  if (type === "button") return String(part.text ?? part.payload ?? "");
  if (type === "interactive") {
    const reply = (part.button_reply ?? part.list_reply ?? {}) as Record<string, unknown>;
    return String(reply.title ?? reply.id ?? "");
  }
  return typeof part.caption === "string" ? part.caption : "";
}

/** What the bots of one inbound batch need, read before the batch changes the conversations. */
export type ChatbotSnapshot = {
  bots: Map<string, Chatbot>;
  keywords: Map<string, KeywordConfig>;
  /** "senderId|contact" -> when that conversation was last closed for good (not snoozed; last-close.ts). */
  closedAt: Map<string, Date>;
};

const pairKey = (senderId: string, contact: string) => `${senderId}|${contact}`;

/** The senders' ACTIVE bots and their conversations' state; null (one query) when none has a bot. */
export async function chatbotSnapshot(tx: Tx, items: InboundForBot[]): Promise<ChatbotSnapshot | null> {
  if (items.length === 0) return null;
  const senderIds = [...new Set(items.map((i) => i.senderId))];
  const bots = await tx.chatbot.findMany({ where: { activeSenderId: { in: senderIds }, status: "ACTIVE" } });
  if (bots.length === 0) return null;
  const botSenders = bots.map((b) => b.senderId);
  const mine = items.filter((i) => botSenders.includes(i.senderId));
  const [senders, closes] = await Promise.all([
    tx.sender.findMany({
      where: { id: { in: botSenders } },
      select: { id: true, optOutKeywords: true, optInKeywords: true },
    }),
    lastClosesOfPairs(tx, botSenders, [...new Set(mine.map((i) => i.from))]),
  ]);
  return {
    bots: new Map(bots.map((b) => [b.senderId, b])),
    keywords: new Map(senders.map((s) => [s.id, s])),
    closedAt: new Map(closes.map((c) => [pairKey(c.senderId, c.contactPhoneNumber), c.closedAt])),
  };
}

// Pattern decisions made before the ingest transaction (predecideChatbotReplies), taken by
// decideChatbotReplies: a bot's patterns may run for their whole budget, and a transaction
// held open that long would hold every other request on the embedded PGlite (one session).
// Keyed by the bot's version, so an edited bot decides again; bounded, oldest out first.
const predecided = new Map<string, TimedDecision>();
const MAX_PREDECIDED = 1_000;
const predecidedKey = (bot: Pick<Chatbot, "id" | "updatedAt">, providerMessageId: string) =>
  `${bot.id}|${bot.updatedAt.getTime()}|${providerMessageId}`;

function takePredecided(bot: Chatbot, providerMessageId: string): TimedDecision | undefined {
  const key = predecidedKey(bot, providerMessageId);
  const decision = predecided.get(key);
  predecided.delete(key);
  return decision;
}

// Whether any ACTIVE bot has patterns: the ingest asks before every batch, the answer is
// reused for a few seconds (a bot activated meanwhile decides inside the transaction).
const patternBots = new SwrCache<boolean>({ ttlMs: 5_000, maxEntries: 1 });
export const patternBotsActive = () =>
  patternBots.get("any", async () => {
    const [row] = await db.$queryRaw<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM "Chatbot"
      WHERE status = 'ACTIVE' AND rules @> '[{"match": {"type": "regex"}}]'::jsonb) AS any`;
    return row?.any === true;
  });

/**
 * Decides, outside any transaction, what the ACTIVE bots with patterns answer to these
 * inbound messages (under the pattern budget, one timeout per bot and pass); the ingest
 * transaction then finds the decisions ready. Returns how many were made.
 */
export async function predecideChatbotReplies(items: InboundForBot[], now = new Date()): Promise<number> {
  if (items.length === 0) return 0;
  const senderIds = [...new Set(items.map((i) => i.senderId))];
  const bots = (await db.chatbot.findMany({ where: { activeSenderId: { in: senderIds }, status: "ACTIVE" } })).filter(
    (b) => hasPatterns(configOf(b)),
  );
  const bySender = new Map(bots.map((b) => [b.senderId, b]));
  const overBudget = new Set<string>();
  let made = 0;
  for (const item of items) {
    const bot = bySender.get(item.senderId);
    if (!bot || bot.customerId !== item.customerId) continue;
    const key = predecidedKey(bot, item.providerMessageId);
    if (predecided.has(key)) continue;
    const config = configOf(bot);
    const decision = overBudget.has(bot.id)
      ? outOfTime(config)
      : await decideWithinBudget(
          config,
          item.text,
          now,
          { chatbotId: bot.id, customerId: bot.customerId },
          item.replyId,
        );
    if (decision.timedOut) overBudget.add(bot.id);
    const oldest = predecided.keys().next();
    if (predecided.size >= MAX_PREDECIDED && !oldest.done) predecided.delete(oldest.value);
    predecided.set(key, decision);
    made += 1;
  }
  return made;
}

/**
 * Writes the outbox rows for the replies the senders' ACTIVE bots decide on; returns how
 * many rows are new. Call inside the transaction that applies the inbound messages, with
 * the snapshot taken before they were applied (taken here when absent).
 */
export async function decideChatbotReplies(
  tx: Tx,
  items: InboundForBot[],
  options: { snapshot?: ChatbotSnapshot | null; now?: Date } = {},
): Promise<number> {
  const snapshot = options.snapshot === undefined ? await chatbotSnapshot(tx, items) : options.snapshot;
  if (!snapshot) return 0;
  const now = options.now ?? new Date();
  let written = 0;
  // A bot whose patterns ran out of time once answers the rest of this batch with its
  // fallback unevaluated: one budget per bot and batch, whatever the batch holds.
  const overBudget = new Set<string>();
  // In order: a batch with several messages from one contact counts its own earlier replies.
  for (const item of items) {
    const bot = snapshot.bots.get(item.senderId);
    if (!bot || bot.customerId !== item.customerId || item.from.length < 2 || item.from === item.senderPhone) continue;
    const since = new Date(now.getTime() - Math.max(HANDOFF_MS, REPLY_CAP.windowMs));
    const [replies, person] = await Promise.all([
      tx.chatbotReply.findMany({
        where: { senderId: item.senderId, contactPhoneNumber: item.from, createdAt: { gte: since } },
        select: { createdAt: true, handoff: true },
      }),
      tx.conversationMessage.findFirst({
        where: {
          customerId: item.customerId,
          ...PERSON_REPLY_WHERE,
          createdAt: { gte: since },
          conversation: { senderId: item.senderId, contactPhoneNumber: item.from },
        },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true },
      }),
    ]);
    const handoffs = replies.filter((r) => r.handoff).map((r) => r.createdAt.getTime());
    const keywords = snapshot.keywords.get(item.senderId) ?? { optOutKeywords: null, optInKeywords: null };
    const verdict = guard({
      messageType: item.type,
      optKeyword: item.optKeyword ?? keywordAction(item.text, keywords) !== null,
      lastHumanReplyAt: person?.createdAt ?? null,
      lastHandoffAt: handoffs.length > 0 ? new Date(Math.max(...handoffs)) : null,
      closedAt: item.closedAt ?? snapshot.closedAt.get(pairKey(item.senderId, item.from)) ?? null,
      recentReplyTimes: replies.map((r) => r.createdAt),
      now,
    });
    if (!verdict.answer) continue;
    const config = configOf(bot);
    const decision: TimedDecision =
      takePredecided(bot, item.providerMessageId) ??
      (overBudget.has(bot.id)
        ? outOfTime(config)
        : await decideWithinBudget(
            config,
            item.text,
            now,
            { chatbotId: bot.id, customerId: bot.customerId },
            item.replyId,
          ));
    if (decision.timedOut) overBudget.add(bot.id);
    if (!decision.reply) continue;
    const { count } = await tx.chatbotReply.createMany({
      data: [
        {
          id: newId("cbr_"),
          customerId: item.customerId,
          senderId: item.senderId,
          chatbotId: bot.id,
          inboundProviderMessageId: item.providerMessageId,
          contactPhoneNumber: item.from,
          matchedRule: decision.matchedRule,
          handoff: decision.handoff,
          reply: decision.reply as Prisma.InputJsonValue,
          createdAt: now,
          nextAttemptAt: now,
        },
      ],
      // A replayed inbound (the provider re-sends callbacks) finds its row: no second reply.
      skipDuplicates: true,
    });
    written += count;
    // A hand-off rule answered: the conversation now waits for a person (conversation.handoff).
    if (count > 0 && decision.handoff) {
      await markHandedOff(tx, {
        customerId: item.customerId,
        senderId: item.senderId,
        contactPhoneNumber: item.from,
        chatbot: { id: bot.id, name: bot.name },
        matchedRule: decision.matchedRule,
        inboundMessageId: item.providerMessageId,
        at: now,
      });
    }
  }
  // Commits with the outbox rows: the chatbot worker wakes (lib/db/wakeups.ts).
  if (written > 0) await tx.$executeRaw(notifyStatement("chatbots"));
  return written;
}

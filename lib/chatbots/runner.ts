// Running chatbots, part 1 (docs/chatbots.md "How a reply is sent"): when inbound messages
// are applied, the sender's ACTIVE bot decides at most one reply to each, written as an
// outbox row IN THE SAME TRANSACTION (unique per inbound provider message id). The worker
// (worker.ts) sends the rows later, so a crash neither loses a reply (the row committed
// with the inbound) nor adds one (a replayed callback hits the unique key).
import type { Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decide, guard, HANDOFF_MS, REPLY_CAP, type Reply } from "./engine";
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
  /** An opt-out or opt-in keyword (they win over bots: docs/conversations.md). */
  optKeyword?: boolean;
  /** When the conversation was last closed (closing ends a hand-off); null when open or unknown. */
  closedAt?: Date | null;
};

/** Default opt-out and opt-in keywords (docs/conversations.md "Opt-out and the blacklist"). */
export const OPT_KEYWORDS = ["STOP", "UNSUBSCRIBE", "STOPALL", "CANCEL", "END", "QUIT", "START", "UNSTOP"];
export const isOptKeyword = (text: string) => OPT_KEYWORDS.includes(text.trim().toUpperCase());

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

export type Decided = { providerMessageId: string; reply: Reply; matchedRule: number | null; handoff: boolean };

/**
 * Writes the outbox rows for the replies the senders' ACTIVE bots decide on; returns how
 * many rows are new. Costs one query when none of the senders has an active bot.
 */
export async function decideChatbotReplies(tx: Tx, items: InboundForBot[], now = new Date()): Promise<number> {
  if (items.length === 0) return 0;
  const senderIds = [...new Set(items.map((i) => i.senderId))];
  const bots = await tx.chatbot.findMany({ where: { activeSenderId: { in: senderIds }, status: "ACTIVE" } });
  if (bots.length === 0) return 0;
  const botBySender = new Map(bots.map((b) => [b.senderId, b]));
  let written = 0;
  // In order: a batch with several messages from one contact counts its own earlier replies.
  for (const item of items) {
    const bot = botBySender.get(item.senderId);
    if (!bot || bot.customerId !== item.customerId || item.from.length < 2 || item.from === item.senderPhone) continue;
    const since = new Date(now.getTime() - Math.max(HANDOFF_MS, REPLY_CAP.windowMs));
    const [replies, human] = await Promise.all([
      tx.chatbotReply.findMany({
        where: { senderId: item.senderId, contactPhoneNumber: item.from, createdAt: { gte: since } },
        select: { createdAt: true, handoff: true },
      }),
      // A person's reply: anything sent to this contact other than by a bot.
      tx.message.findFirst({
        where: {
          customerId: item.customerId,
          senderId: item.senderId,
          recipient: item.from,
          sendRoute: { not: "chatbot" },
          createdAt: { gte: since },
        },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true },
      }),
    ]);
    const handoffs = replies.filter((r) => r.handoff).map((r) => r.createdAt.getTime());
    const verdict = guard({
      messageType: item.type,
      optKeyword: item.optKeyword ?? isOptKeyword(item.text),
      lastHumanReplyAt: human?.createdAt ?? null,
      lastHandoffAt: handoffs.length > 0 ? new Date(Math.max(...handoffs)) : null,
      closedAt: item.closedAt ?? null,
      recentReplyTimes: replies.map((r) => r.createdAt),
      now,
    });
    if (!verdict.answer) continue;
    const decision = decide(configOf(bot), item.text, now);
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
  }
  return written;
}

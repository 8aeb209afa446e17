// Inbound messages -> their conversation (lib/domains/conversations/inbound.ts) and
// message.inbound.<type> events carrying the conversationUid (idempotent per provider
// message id), plus conversation.created for the conversations they start.

import type { Tx } from "@/lib/db";
import { stageInbound } from "@/lib/domains/automation/enqueue";
import { markReplied } from "@/lib/domains/broadcasts/recipient-statuses";
import { chatbotSnapshot, decideChatbotReplies, type InboundForBot, inboundText } from "@/lib/domains/chatbots/runner";
import { replyOf } from "@/lib/domains/conversations/content";
import { applyInbound, type InboundMessage } from "@/lib/domains/conversations/inbound";
import { quotedProviderId, type ReplyTo } from "@/lib/domains/conversations/quotes";
import { type EventInput, type EventSender, emitEvents } from "@/lib/domains/events/emit";
import {
  type InboundFile,
  type InboundMediaRecord,
  inboundFileOf,
  recordInboundMedia,
} from "@/lib/domains/media/inbound";
import { isMediaKind } from "@/lib/domains/media/kinds";
import { type MessageMediaRow, toMessageMedia } from "@/lib/domains/media/serializers";
import { newMediaId } from "@/lib/domains/media/service";
import type { ProviderMessagesValueT, ProviderMessageT } from "@/lib/domains/provider/callbacks/schemas";
import { threadTimeOf } from "./thread-time";

export type InboundItem = {
  sender: EventSender;
  message: ProviderMessageT;
  contacts: ProviderMessagesValueT["contacts"];
};

function contactName(item: InboundItem): string | null {
  const contact = item.contacts?.find((c) => c.wa_id === item.message.from) ?? item.contacts?.[0];
  const name = (contact?.profile as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? name : null;
}

const timeOf = (m: ProviderMessageT) => new Date(Number(m.timestamp) * 1000);

export function inboundEvent(
  item: InboundItem,
  conversationUid: string | null,
  media?: MessageMediaRow,
  replyTo?: ReplyTo,
): EventInput {
  const m = item.message as ProviderMessageT & Record<string, unknown>;
  const type = m.type.toLowerCase();
  const file = inboundFileOf(type, m);
  const reply = replyOf(type, m);
  return {
    sender: item.sender,
    type: `message.inbound.${type}`,
    dedupeKey: `inbound:${m.id}`,
    data: {
      messageId: m.id,
      conversationUid,
      from: m.from ?? null,
      contactName: contactName(item),
      timestamp: timeOf(m).toISOString(),
      type,
      [type]: m[type] ?? null,
      // A reaction names our message it reacts to (docs/messaging.md "Reactions").
      ...(type === "reaction" ? { reaction: { ...(m.reaction ?? {}), messageId: replyTo?.messageId ?? null } } : {}),
      // The quoted message (a quoted reply, the message a tap answers), resolved to its entry in
      // this conversation when it is one (docs/conversations.md "Quoted replies").
      context: m.context
        ? {
            ...m.context,
            messageId: replyTo?.messageId ?? null,
            providerMessageId: replyTo?.providerMessageId ?? quotedProviderId(m),
          }
        : null,
      ...(reply ? { reply } : {}),
      // A media message's file (docs/media.md "Inbound media"): pending until the media worker fetched it.
      ...(isMediaKind(type) ? { media: media ? toMessageMedia(media, file?.caption) : null } : {}),
    },
  };
}

function toConversationInput(item: InboundItem): InboundMessage | undefined {
  const m = item.message as ProviderMessageT & Record<string, unknown>;
  const digits = (m.from ?? "").replace(/\D/g, "");
  const at = timeOf(m);
  if (!digits || Number.isNaN(at.getTime())) return undefined;
  // Provider timestamps are whole seconds: a message received within its second takes the
  // arrival time (its window and its place in the thread); one processed later keeps its
  // provider time for the window and the end of its second in the thread (thread-time.ts).
  const now = Date.now();
  const received = now >= at.getTime() && now - at.getTime() < 1000 ? new Date(now) : at;
  return {
    sender: item.sender,
    id: m.id,
    contact: `+${digits}`,
    contactName: contactName(item),
    // A clock ahead of ours must not stretch the window.
    at: at.getTime() > now ? new Date(now) : received,
    threadAt: threadTimeOf(at, now),
    type: m.type.toLowerCase(),
    body: m,
  };
}

const conversationInputs = (items: InboundItem[]) =>
  items.map(toConversationInput).filter((m): m is InboundMessage => m !== undefined);

const forBot = (m: InboundMessage): InboundForBot => ({
  customerId: m.sender.customerId,
  senderId: m.sender.id,
  senderPhone: m.sender.phoneNumber,
  providerMessageId: m.id,
  from: m.contact,
  type: m.type,
  text: inboundText(m.body),
  replyId: replyOf(m.type, m.body)?.id ?? null,
});

/** The contacts who wrote, per sender: whose broadcast recipients the batch marks replied. */
export const repliesOf = (items: InboundItem[]): { senderId: string; phoneNumber: string }[] =>
  conversationInputs(items).map((m) => ({ senderId: m.sender.id, phoneNumber: m.contact }));

/** What the chatbots see of these inbound messages. */
export const botItemsOf = (items: InboundItem[]): InboundForBot[] => conversationInputs(items).map(forBot);

/**
 * Each media message's file (docs/media.md "Inbound media"): a mediaId issued for its thread
 * entry, and the pending record the media worker fetches.
 */
function withMedia(inputs: InboundMessage[], arrivedAt: Date): InboundMediaRecord[] {
  const files: InboundMediaRecord[] = [];
  for (const m of inputs) {
    const file: InboundFile | null = inboundFileOf(m.type, m.body);
    if (!file) continue;
    m.mediaId = newMediaId();
    files.push({
      ...file,
      mediaId: m.mediaId,
      customerId: m.sender.customerId,
      senderId: m.sender.id,
      providerMessageId: m.id,
      arrivedAt,
    });
  }
  return files;
}

export async function ingestInbound(tx: Tx, items: InboundItem[]): Promise<number> {
  if (items.length === 0) return 0;
  const inputs = conversationInputs(items);
  const files = withMedia(inputs, new Date());
  // Chatbots (docs/chatbots.md) see each conversation as it was before this batch (a new
  // message reopens a closed one); one query when no sender here has an ACTIVE bot.
  const forBots = inputs.map(forBot);
  const bots = await chatbotSnapshot(tx, forBots);
  const { conversationOf, replyToOf, events, csatAnswers, stored, decidedAt } = await applyInbound(tx, inputs);
  // After the entries: a replayed message's entry keeps its first file, and no second is recorded.
  const mediaOf = await recordInboundMedia(tx, files);
  const emitted = await emitEvents(tx, [
    ...events,
    ...items.map((item) =>
      inboundEvent(
        item,
        conversationOf.get(item.message.id) ?? null,
        mediaOf.get(item.message.id),
        replyToOf.get(item.message.id),
      ),
    ),
  ]);
  // In this same transaction, the sender's ACTIVE bot writes at most one outbox reply per
  // inbound message: committed with it, or lost with it and applied again.
  // A CSAT survey's answer (docs/reports.md "CSAT") is for the survey: no bot or rule answers it.
  // A replayed message had its decision and its rule jobs when it was first stored.
  if (bots) {
    const asked = forBots.filter((m) => stored.has(m.providerMessageId) && !csatAnswers.has(m.providerMessageId));
    // As of the conversations' lock, as the support periods read a person's reply (docs/reports.md "Definitions").
    await decideChatbotReplies(tx, asked, { snapshot: bots, now: decidedAt });
  }
  // Automation rules (docs/automation.md "Where rules run"): the new messages are staged with
  // them, one job per account; the automation worker makes their event jobs and timers and
  // evaluates the rules after the commit.
  const created = new Set(
    events.filter((e) => e.type === "conversation.created").map((e) => String(e.data.conversationUid)),
  );
  await stageInbound(
    tx,
    inputs.flatMap((m) => {
      const conversationId = conversationOf.get(m.id);
      if (!conversationId || !stored.has(m.id) || csatAnswers.has(m.id)) return [];
      return [
        {
          customerId: m.sender.customerId,
          senderId: m.sender.id,
          conversationId,
          providerMessageId: m.id,
          text: inboundText(m.body),
          type: m.type,
          at: m.at,
          seenAt: decidedAt,
          created: created.has(conversationId),
        },
      ];
    }),
  );
  // A contact who writes back marks their delivered broadcast messages replied (docs/broadcasts.md).
  const bySender = new Map<string, string[]>();
  for (const m of inputs) bySender.set(m.sender.id, [...(bySender.get(m.sender.id) ?? []), m.contact]);
  for (const [senderId, contacts] of bySender) await markReplied(tx, senderId, contacts);
  return emitted;
}

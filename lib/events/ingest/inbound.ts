// Inbound messages -> message.inbound.<type> events (idempotent per provider message id).
import { decideChatbotReplies, inboundText } from "@/lib/chatbots/runner";
import type { Tx } from "@/lib/db";
import type { ProviderMessagesValueT, ProviderMessageT } from "@/lib/provider/callbacks/schemas";
import { type EventInput, type EventSender, emitEvents } from "../emit";

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

export function inboundEvent(item: InboundItem): EventInput {
  const m = item.message as ProviderMessageT & Record<string, unknown>;
  const type = m.type.toLowerCase();
  return {
    sender: item.sender,
    type: `message.inbound.${type}`,
    dedupeKey: `inbound:${m.id}`,
    data: {
      messageId: m.id,
      from: m.from ?? null,
      contactName: contactName(item),
      timestamp: new Date(Number(m.timestamp) * 1000).toISOString(),
      type,
      [type]: m[type] ?? null,
      context: m.context ?? null,
    },
  };
}

export async function ingestInbound(tx: Tx, items: InboundItem[]): Promise<number> {
  const events = await emitEvents(tx, items.map(inboundEvent));
  // Chatbot hook (docs/chatbots.md): in this same transaction, the sender's ACTIVE bot
  // writes at most one outbox reply per inbound message.
  await decideChatbotReplies(
    tx,
    items.map(({ sender, message }) => ({
      customerId: sender.customerId,
      senderId: sender.id,
      senderPhone: sender.phoneNumber,
      providerMessageId: message.id,
      from: `+${String(message.from ?? "").replace(/^\+/, "")}`,
      type: message.type.toLowerCase(),
      text: inboundText(message as Record<string, unknown>),
    })),
  );
  return events;
}

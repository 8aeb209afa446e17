// Inbound messages -> message.inbound.<type> events (idempotent per provider message id).
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
  return emitEvents(tx, items.map(inboundEvent));
}

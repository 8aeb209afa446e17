// A chatbot's hand-off marks the conversation as waiting for a person (docs/inbox.md "Waiting
// for a person"): visible and filterable in the inbox and the API, announced once as
// conversation.handoff, and cleared by a person's reply (outbound.ts). Runs in the inbound's
// transaction, beside the chatbot's outbox row.
import type { Tx } from "@/lib/db";
import { refreshSla } from "@/lib/domains/sla/timers";
import { recordHandoff } from "@/lib/domains/support/periods";
import { emitConversationEvents, handoffEvent } from "./events";

export type HandoffInput = {
  customerId: string;
  senderId: string;
  contactPhoneNumber: string;
  chatbot: { id: string; name: string };
  matchedRule: number | null;
  inboundMessageId: string;
  at: Date;
};

/** Marks the conversation waiting (unless it already is) and emits conversation.handoff; the events written. */
export async function markHandedOff(tx: Tx, h: HandoffInput): Promise<number> {
  const where = { customerId: h.customerId, senderId: h.senderId, contactPhoneNumber: h.contactPhoneNumber };
  const { count } = await tx.conversation.updateMany({
    where: { ...where, handoffAt: null },
    data: { handoffAt: h.at },
  });
  if (count === 0) return 0;
  const c = await tx.conversation.findFirstOrThrow({ where, include: { sender: true } });
  await recordHandoff(tx, c.id, h.at);
  // The wait the hand-off began is what a first response is due after (docs/reports.md "SLA policies").
  await refreshSla(tx, [c.id], false);
  return emitConversationEvents(tx, [
    handoffEvent(c.sender, c, h.at, {
      chatbotUid: h.chatbot.id,
      chatbotName: h.chatbot.name,
      matchedRule: h.matchedRule,
      inboundMessageId: h.inboundMessageId,
    }),
  ]);
}

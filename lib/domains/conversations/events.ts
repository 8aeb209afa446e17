// conversation.created, conversation.closed and conversation.handoff (catalog group "Conversations"), emitted
// through the event pipeline like every other event (dedupe keys make them once-only).
import type { Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { type EventInput, type EventSender, emitEvents } from "@/lib/domains/events/emit";
import { ConversationAssigned, ConversationClosed, ConversationCreated, ConversationHandoff } from "./event-types";

export type ConversationEventRow = {
  id: string;
  contactPhoneNumber: string;
  contactName: string | null;
  createdAt: Date;
};

export function createdEvent(sender: EventSender, c: ConversationEventRow, origin: "inbound" | "outbound"): EventInput {
  return ConversationCreated.of({
    sender,
    dedupeKey: `conversation.created:${c.id}`,
    createdAt: c.createdAt,
    data: {
      conversationUid: c.id,
      contactPhoneNumber: c.contactPhoneNumber,
      contactName: c.contactName,
      status: "OPEN",
      origin,
      createdAt: c.createdAt.toISOString(),
    },
  });
}

export function closedEvent(
  sender: EventSender,
  c: ConversationEventRow,
  closedAt: Date,
  by: string | null,
): EventInput {
  return ConversationClosed.of({
    sender,
    // One event per closing (a conversation can be reopened and closed again).
    dedupeKey: `conversation.closed:${c.id}:${closedAt.getTime()}:${newId("")}`,
    createdAt: closedAt,
    data: {
      conversationUid: c.id,
      contactPhoneNumber: c.contactPhoneNumber,
      contactName: c.contactName,
      status: "CLOSED",
      closedAt: closedAt.toISOString(),
      closedBy: by,
    },
  });
}

/** A chatbot handed the conversation to a person: it waits for a person's reply (docs/inbox.md). */
export function handoffEvent(
  sender: EventSender,
  c: ConversationEventRow & { status: "OPEN" | "CLOSED" },
  handoffAt: Date,
  bot: { chatbotUid: string; chatbotName: string; matchedRule: number | null; inboundMessageId: string },
): EventInput {
  return ConversationHandoff.of({
    sender,
    // One per hand-off: a later one (after a person replied) is a new event.
    dedupeKey: `conversation.handoff:${c.id}:${handoffAt.getTime()}`,
    createdAt: handoffAt,
    data: {
      conversationUid: c.id,
      contactPhoneNumber: c.contactPhoneNumber,
      contactName: c.contactName,
      status: c.status,
      handoffAt: handoffAt.toISOString(),
      ...bot,
    },
  });
}

export const emitConversationEvents = (tx: Tx, events: EventInput[]) => emitEvents(tx, events);

/** conversation.assigned: a new assignee, or none (unassigned). `by`: a member's email, a token's name, or null (auto-assignment). */
export function assignedEvent(
  sender: EventSender,
  c: Omit<ConversationEventRow, "createdAt">,
  assignee: { email: string; name: string | null } | null,
  by: string | null,
  at: Date,
): EventInput {
  return ConversationAssigned.of({
    sender,
    // One event per change (a conversation changes hands many times).
    dedupeKey: `conversation.assigned:${c.id}:${at.getTime()}:${newId("")}`,
    createdAt: at,
    data: {
      conversationUid: c.id,
      contactPhoneNumber: c.contactPhoneNumber,
      contactName: c.contactName,
      assignee,
      assignedBy: by,
      assignedAt: at.toISOString(),
    },
  });
}

// The events about conversations (docs/event-pipeline.md "Events"; emitted by ./events.ts).
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";

const ConversationBase = {
  conversationUid: z.string(),
  contactPhoneNumber: z.string(),
  contactName: z.string().nullable(),
};
const convo = { conversationUid: "cm3conversation01", contactPhoneNumber: "+15550100002", contactName: "Ada Lovelace" };

export const ConversationCreated = defineEvent({
  type: "conversation.created",
  description: "A conversation with a new contact began (their first message, or the first message sent to them).",
  schema: z.object({
    ...ConversationBase,
    status: z.literal("OPEN"),
    origin: z.enum(["inbound", "outbound"]),
    createdAt: EventTime,
  }),
  example: { ...convo, status: "OPEN", origin: "inbound", createdAt: EXAMPLE_AT },
});

export const ConversationClosed = defineEvent({
  type: "conversation.closed",
  description: "A conversation was closed from the API or the dashboard.",
  schema: z.object({
    ...ConversationBase,
    status: z.literal("CLOSED"),
    closedAt: EventTime,
    closedBy: z.string().nullable(),
  }),
  example: { ...convo, status: "CLOSED", closedAt: EXAMPLE_AT, closedBy: "agent@example.com" },
});

export const ConversationAssigned = defineEvent({
  type: "conversation.assigned",
  description:
    "A conversation's assignee changed: assigned to a member (from the API, the inbox, a member's first reply or auto-assignment) or unassigned.",
  schema: z.object({
    ...ConversationBase,
    assignee: z
      .object({ email: z.string(), name: z.string().nullable() })
      .nullable()
      .describe("The member it is now assigned to; null: unassigned"),
    assignedBy: z
      .string()
      .nullable()
      .describe("The member's email or the API token's name that made the change; null: auto-assignment"),
    assignedAt: EventTime,
  }),
  example: {
    ...convo,
    assignee: { email: "agent@example.com", name: "Grace Hopper" },
    assignedBy: "owner@example.com",
    assignedAt: EXAMPLE_AT,
  },
});

export const ConversationHandoff = defineEvent({
  type: "conversation.handoff",
  description: "A chatbot handed a conversation to a person: it waits for a person's reply.",
  schema: z.object({
    ...ConversationBase,
    status: z.enum(["OPEN", "CLOSED"]),
    handoffAt: EventTime,
    chatbotUid: z.string().describe("The chatbot that handed off"),
    chatbotName: z.string(),
    matchedRule: z.number().int().nullable().describe("The index of the rule with handoff: true that answered"),
    inboundMessageId: z.string().describe("The provider id of the contact's message that was answered"),
  }),
  example: {
    ...convo,
    status: "OPEN",
    handoffAt: EXAMPLE_AT,
    chatbotUid: "cbt_3f9a2c41d0e8",
    chatbotName: "Front desk",
    matchedRule: 2,
    inboundMessageId: "wamid.HBgLMTU1NTAxMDAwMDIVAgASGBQzQUI",
  },
});

export const CONVERSATION_EVENTS = [ConversationCreated, ConversationClosed, ConversationAssigned, ConversationHandoff];

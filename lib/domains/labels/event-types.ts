// The event about labels (docs/event-pipeline.md "Events"; emitted by ./apply.ts), in the
// catalog's "Conversations" group.
import { z } from "zod";
import { defineEvent } from "@/lib/domains/events/define";

export const ConversationLabelsChanged = defineEvent({
  type: "conversation.labels_changed",
  description:
    "Labels were put on or taken off a conversation (from the API, the inbox or an automation rule); only what actually changed is listed.",
  schema: z.object({
    conversationUid: z.string(),
    contactPhoneNumber: z.string(),
    contactName: z.string().nullable(),
    added: z.array(z.string()).describe("Label names put on, sorted by name"),
    removed: z.array(z.string()).describe("Label names taken off, sorted by name"),
    labels: z.array(z.string()).describe("Every label the conversation carries now, sorted by name"),
    by: z
      .string()
      .nullable()
      .describe("The member's email, the API token's name or the automation rule that made the change"),
  }),
  example: {
    conversationUid: "cm3conversation01",
    contactPhoneNumber: "+15550100002",
    contactName: "Ada Lovelace",
    added: ["refund"],
    removed: ["new"],
    labels: ["refund", "vip"],
    by: "agent@example.com",
  },
});

export const LABEL_EVENTS = [ConversationLabelsChanged] as const;

// The support figures' events (docs/event-pipeline.md "Events"; catalog group "Conversations"):
// a contact's answer to a CSAT survey (docs/reports.md "CSAT"; emitted by ./csat-replies.ts).
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";

export const ConversationCsatReceived = defineEvent({
  type: "conversation.csat_received",
  description:
    "A contact answered the satisfaction survey sent when a person closed their conversation (once per survey).",
  schema: z.object({
    conversationUid: z.string(),
    contactPhoneNumber: z.string(),
    contactName: z.string().nullable(),
    score: z.number().int().min(1).max(3).describe("1 unhappy, 2 neutral, 3 happy"),
    memberId: z
      .string()
      .nullable()
      .describe("The email of the member who closed the conversation; null: closed through the API"),
    respondedAt: EventTime,
  }),
  example: {
    conversationUid: "cm3conversation01",
    contactPhoneNumber: "+15550100002",
    contactName: "Ada Lovelace",
    score: 3,
    memberId: "agent@example.com",
    respondedAt: EXAMPLE_AT,
  },
});

export const SUPPORT_EVENTS = [ConversationCsatReceived];

// The event about SLA breaches (docs/reports.md "SLA policies"; emitted by ./timers.ts), in the
// catalog's "Conversations" group.
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";
import { SLA_TARGETS } from "./schemas";

export const ConversationSlaBreached = defineEvent({
  type: "conversation.sla_breached",
  description:
    "A conversation missed a target of its SLA policy (first response, next response or resolution); once per target and wait.",
  schema: z.object({
    conversationUid: z.string(),
    target: z.enum(SLA_TARGETS).describe("first_response, next_response or resolution"),
    dueAt: EventTime.describe("When the target was due"),
    breachedAt: EventTime.describe("When the breach was recorded (at or after dueAt)"),
    policyUid: z.string().describe("The SLA policy whose target it missed"),
  }),
  example: {
    conversationUid: "cm3conversation01",
    target: "first_response",
    dueAt: "2026-11-23T10:00:00.000Z",
    breachedAt: EXAMPLE_AT,
    policyUid: "sla_mwtr9dy580d00daf32ad1db4ff19",
  },
});

export const SLA_EVENTS = [ConversationSlaBreached] as const;

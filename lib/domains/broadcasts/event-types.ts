// The events about broadcasts (docs/broadcasts.md; emitted by ./events.ts): every one carries
// data.broadcastUid.
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";
import { PAUSE_REASONS, RECIPIENT_STATUSES } from "./schemas";

const BroadcastBase = { broadcastUid: z.string(), timestamp: EventTime };
const bc = { broadcastUid: "bc_mwtr9dy580d00daf32ad1db4ff17", timestamp: EXAMPLE_AT };
const Estimate = z.object({
  recipients: z.number().int(),
  skipped: z.number().int(),
  cost: z.number(),
  currency: z.string(),
  durationSeconds: z.number().int(),
});
const Counts = z.object(
  Object.fromEntries(["total", ...RECIPIENT_STATUSES, "replied"].map((k) => [k, z.number().int()])),
);

export const BroadcastStarted = defineEvent({
  type: "broadcast.started",
  description: "A broadcast started sending (its recipients were made).",
  schema: z.object({ ...BroadcastBase, status: z.literal("SENDING"), estimate: Estimate }),
  example: {
    ...bc,
    status: "SENDING",
    estimate: { recipients: 1200, skipped: 14, cost: 30, currency: "USD", durationSeconds: 15 },
  },
});

export const BroadcastPaused = defineEvent({
  type: "broadcast.paused",
  description: "A broadcast paused: by a person (pauseReason null) or by the service (pauseReason says why).",
  schema: z.object({
    ...BroadcastBase,
    status: z.literal("PAUSED"),
    pauseReason: z.enum(PAUSE_REASONS).nullable().describe("null: a person paused it"),
    resumesAt: EventTime.nullable().describe("When it resumes by itself (messaging_limit)"),
  }),
  example: { ...bc, status: "PAUSED", pauseReason: "messaging_limit", resumesAt: "2026-11-24T08:02:11.000Z" },
});

export const BroadcastCompleted = defineEvent({
  type: "broadcast.completed",
  description: "A broadcast has no recipient left to send (with counts and cost).",
  schema: z.object({
    ...BroadcastBase,
    status: z.literal("COMPLETED"),
    counts: Counts,
    cost: z.number().describe("Billed so far (statuses keep arriving after completion)"),
  }),
  example: {
    ...bc,
    status: "COMPLETED",
    counts: {
      total: 1214,
      queued: 0,
      skipped: 14,
      sending: 0,
      accepted: 120,
      sent: 300,
      delivered: 610,
      read: 150,
      failed: 20,
      interrupted: 0,
      replied: 41,
    },
    cost: 29.5,
  },
});

export const BROADCAST_EVENTS = [BroadcastStarted, BroadcastPaused, BroadcastCompleted];

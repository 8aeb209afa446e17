// The events about webhook destinations themselves (docs/event-pipeline.md "Endpoint health"):
// sent to the customer's other active destinations, and the signed test event.
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";

const OperationalBase = {
  webhookUid: z.string().describe("The destination in trouble (not the one receiving this event)"),
  name: z.string(),
  endpointUrl: z.string(),
  phoneNumber: z.string().describe("The sender phone number that destination belongs to"),
};
const trouble = {
  webhookUid: "cm3webhook00001",
  name: "Order system",
  endpointUrl: "https://orders.example.com/hooks",
  phoneNumber: "+15550100001",
};

export const EndpointDisabled = defineEvent({
  type: "webhook.endpoint.disabled",
  description:
    "One of your webhook destinations was disabled after 5 days of failed deliveries (sent to your other destinations).",
  schema: z.object({
    ...OperationalBase,
    status: z.literal("INACTIVE"),
    disabledAt: EventTime,
    reason: z.string(),
    failingSince: EventTime.nullable().describe("The first failure of the streak; no success since"),
    consecutiveFailures: z.number().int(),
  }),
  example: {
    ...trouble,
    status: "INACTIVE",
    disabledAt: EXAMPLE_AT,
    reason:
      "Disabled automatically: every delivery attempt failed since 2026-11-18T10:14:00.000Z (5 days without a success)",
    failingSince: "2026-11-18T10:14:00.000Z",
    consecutiveFailures: 212,
  },
});

export const DeliveryExhausted = defineEvent({
  type: "webhook.delivery.exhausted",
  description:
    "A delivery to one of your webhook destinations gave up after its retries (sent to your other destinations).",
  schema: z.object({
    ...OperationalBase,
    deliveryId: z.string().describe("The delivery that gave up (its webhook-id)"),
    eventId: z.string(),
    eventType: z.string(),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    failedAt: EventTime,
  }),
  example: {
    ...trouble,
    deliveryId: "msg_0f3c2a9d8b7e4c1a9f0e2d3c4b5a6978",
    eventId: "evt_01jexample000000000000001",
    eventType: "message.status.delivered",
    attempts: 6,
    lastStatusCode: 503,
    lastError: "HTTP 503",
    failedAt: EXAMPLE_AT,
  },
});

/** webhook.test (POST /webhooks/{webhookUid}/test): sent to that destination only, whatever it subscribes to. */
export const TestEvent = defineEvent({
  type: "webhook.test",
  description:
    "A signed test sent by POST /webhooks/{webhookUid}/test (or the dashboard's Send test event) to that one destination, whatever it subscribes to; not a key to subscribe to.",
  schema: z.object({
    message: z.string().describe("A line saying this is a test"),
    webhookUid: z.string().describe("The destination the test was sent to"),
  }),
  example: {
    message: "This is a test event from Switchboard. If you can read it, your endpoint works.",
    webhookUid: "cm3webhook00001",
  },
});

export const OPERATIONAL_EVENTS = [EndpointDisabled, DeliveryExhausted];

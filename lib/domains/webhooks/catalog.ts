// The event catalog (docs/api/webhooks.md "The event catalog"): every key a destination may subscribe
// to. GET /webhooks/events serves it; create and update accept only these keys.
import { payloadDocs } from "./payloads";

export type CatalogEvent = { key: string; description: string };
export type CatalogGroup = { key: string; name: string; description: string; events: CatalogEvent[] };

const STATUS_EVENTS: CatalogEvent[] = [
  { key: "message.status.accepted", description: "The provider accepted an outgoing message for delivery." },
  { key: "message.status.sent", description: "An outgoing message left the provider towards the recipient." },
  { key: "message.status.delivered", description: "An outgoing message reached the recipient's device." },
  { key: "message.status.read", description: "The recipient read an outgoing message." },
  { key: "message.status.failed", description: "An outgoing message could not be delivered (terminal)." },
];

const INBOUND_TYPES: [string, string][] = [
  ["text", "a text message"],
  ["image", "an image"],
  ["audio", "an audio message or voice note"],
  ["video", "a video"],
  ["document", "a document"],
  ["sticker", "a sticker"],
  ["location", "a location"],
  ["contacts", "one or more contact cards"],
  ["interactive", "a reply to an interactive message (list or reply button)"],
  ["button", "a tap on a template quick-reply button"],
  ["reaction", "a reaction to a message"],
];

const TEMPLATE_EVENTS: CatalogEvent[] = [
  { key: "template.status_update", description: "A message template was approved, rejected, paused or disabled." },
  { key: "template.category_update", description: "The provider changed a message template's category." },
  { key: "template.quality_update", description: "A message template's quality rating changed." },
];

const CONVERSATION_EVENTS: CatalogEvent[] = [
  {
    key: "conversation.created",
    description: "A conversation with a new contact began (their first message, or the first message sent to them).",
  },
  { key: "conversation.closed", description: "A conversation was closed from the API or the dashboard." },
  {
    key: "conversation.assigned",
    description:
      "A conversation's assignee changed: assigned to a member (from the API, the inbox, a member's first reply or auto-assignment) or unassigned.",
  },
  {
    key: "conversation.handoff",
    description: "A chatbot handed a conversation to a person: it waits for a person's reply.",
  },
];

const BROADCAST_EVENTS: CatalogEvent[] = [
  { key: "broadcast.started", description: "A broadcast started sending (its recipients were made)." },
  {
    key: "broadcast.paused",
    description: "A broadcast paused: by a person (pauseReason null) or by the service (pauseReason says why).",
  },
  { key: "broadcast.completed", description: "A broadcast has no recipient left to send (with counts and cost)." },
];

const OPERATIONAL_EVENTS: CatalogEvent[] = [
  {
    key: "webhook.endpoint.disabled",
    description:
      "One of your webhook destinations was disabled after 5 days of failed deliveries (sent to your other destinations).",
  },
  {
    key: "webhook.delivery.exhausted",
    description:
      "A delivery to one of your webhook destinations gave up after its retries (sent to your other destinations).",
  },
];

const BILLING_EVENTS: CatalogEvent[] = [
  {
    key: "billing.balance.low",
    description:
      "The account's balance fell below its low-balance threshold (once per crossing; again after it was back above).",
  },
];

export const EVENT_GROUPS: readonly CatalogGroup[] = [
  {
    key: "message.status",
    name: "Message status",
    description:
      "Lifecycle updates of messages you sent. Status only moves forward; each event carries the previous status.",
    events: STATUS_EVENTS,
  },
  {
    key: "message.inbound",
    name: "Inbound messages",
    description: "Messages your customers sent to your number, one key per message type.",
    events: INBOUND_TYPES.map(([type, what]) => ({
      key: `message.inbound.${type}`,
      description: `A customer sent ${what}.`,
    })),
  },
  {
    key: "template",
    name: "Templates",
    description: "Changes to your message templates reported by the provider.",
    events: TEMPLATE_EVENTS,
  },
  {
    key: "conversation",
    name: "Conversations",
    description: "The inbox's threads with your contacts: started, handed off by a chatbot to a person, closed.",
    events: CONVERSATION_EVENTS,
  },
  {
    key: "broadcast",
    name: "Broadcasts",
    description: "One template sent to an audience; every event carries data.broadcastUid.",
    events: BROADCAST_EVENTS,
  },
  {
    key: "webhook",
    name: "Endpoint health",
    description:
      "Operational events about your webhook destinations, delivered to your other active destinations that subscribe to them.",
    events: OPERATIONAL_EVENTS,
  },
  {
    key: "billing",
    name: "Billing",
    description: "The account's money, sent to each active destination that subscribes, under its own sender.",
    events: BILLING_EVENTS,
  },
];

export const EVENT_KEYS: readonly string[] = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.key));

const KEY_SET: ReadonlySet<string> = new Set(EVENT_KEYS);

export function isEventKey(value: unknown): value is string {
  return typeof value === "string" && KEY_SET.has(value);
}

/** The type of the signed test event (POST /webhooks/{uid}/test); not subscribable. */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * The test event in the catalog: a destination receives it whatever it subscribes to, so it
 * is listed (with its body's schema) beside the endpoint-health events, but is no key to subscribe to.
 */
const TEST_EVENT: CatalogEvent = {
  key: TEST_EVENT_TYPE,
  description:
    "A signed test sent by POST /webhooks/{webhookUid}/test (or the dashboard's Send test event) to that one destination, whatever it subscribes to; not a key to subscribe to.",
};

/** Every type a destination may receive: the subscribable keys and webhook.test. */
export const DELIVERED_EVENT_TYPES: readonly string[] = [...EVENT_KEYS, TEST_EVENT_TYPE];

/** Every group with its events, webhook.test in the endpoint-health group; `subscribable` tells them apart. */
export type ListedEvent = CatalogEvent & { subscribable: boolean };
export function catalogGroups(): (Omit<CatalogGroup, "events"> & { events: ListedEvent[] })[] {
  return EVENT_GROUPS.map((g) => ({
    ...g,
    events: [
      ...g.events.map((e) => ({ ...e, subscribable: true })),
      ...(g.key === "webhook" ? [{ ...TEST_EVENT, subscribable: false }] : []),
    ],
  }));
}

/** The data of GET /webhooks/events: every type with its payload's JSON Schema and an example (payloads.ts). */
export function eventCatalog() {
  const docs = payloadDocs();
  return {
    groups: catalogGroups().map((g) => ({
      ...g,
      events: g.events.map((e) => ({ ...e, schema: docs[e.key]?.schema ?? {}, example: docs[e.key]?.example ?? {} })),
    })),
    eventKeys: [...EVENT_KEYS],
  };
}

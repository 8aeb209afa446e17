// The event catalog (docs/api/webhooks.md "The event catalog"): every key a destination may subscribe
// to, composed from the definitions of the domains that emit them (defineEvent,
// lib/domains/events/define.ts). GET /webhooks/events serves it with each body's JSON Schema and
// example; create and update accept only these keys.
import { z } from "zod";
import { openObjects } from "@/lib/core/open-schema";
import { AUTOMATION_EVENTS } from "@/lib/domains/automation/event-types";
import { BILLING_EVENTS } from "@/lib/domains/billing/event-types";
import { BROADCAST_EVENTS } from "@/lib/domains/broadcasts/event-types";
import { CONVERSATION_EVENTS } from "@/lib/domains/conversations/event-types";
import { type EventDefinition, envelopeExample, envelopeSchema } from "@/lib/domains/events/define";
import { LABEL_EVENTS } from "@/lib/domains/labels/event-types";
import { INBOUND_MESSAGE_EVENTS, MESSAGE_STATUS_EVENTS } from "@/lib/domains/messaging/event-types";
import { SLA_EVENTS } from "@/lib/domains/sla/event-types";
import { SUPPORT_EVENTS } from "@/lib/domains/support/event-types";
import { TEMPLATE_EVENTS } from "@/lib/domains/templates/event-types";
import { OPERATIONAL_EVENTS, TestEvent } from "./event-types";

export type CatalogEvent = { key: string; description: string };
export type CatalogGroup = { key: string; name: string; description: string; events: CatalogEvent[] };

type Group = Omit<CatalogGroup, "events"> & { definitions: readonly EventDefinition[] };

/** The groups of the catalog, in order, each with its domain's definitions. A new event: its defineEvent in the list of its group. */
const GROUPS: readonly Group[] = [
  {
    key: "message.status",
    name: "Message status",
    description:
      "Lifecycle updates of messages you sent. Status only moves forward; each event carries the previous status.",
    definitions: Object.values(MESSAGE_STATUS_EVENTS),
  },
  {
    key: "message.inbound",
    name: "Inbound messages",
    description: "Messages your customers sent to your number, one key per message type.",
    definitions: Object.values(INBOUND_MESSAGE_EVENTS),
  },
  {
    key: "template",
    name: "Templates",
    description: "Changes to your message templates reported by the provider.",
    definitions: Object.values(TEMPLATE_EVENTS),
  },
  {
    key: "conversation",
    name: "Conversations",
    description:
      "The inbox's threads with your contacts: started, handed off by a chatbot to a person, assigned, labelled, closed, rated, an SLA target missed.",
    definitions: [...CONVERSATION_EVENTS, ...LABEL_EVENTS, ...SUPPORT_EVENTS, ...SLA_EVENTS],
  },
  {
    key: "automation",
    name: "Automations",
    description:
      "Rules that ran a webhook action (docs: automation rules); every event carries data.ruleUid and data.runUid.",
    definitions: AUTOMATION_EVENTS,
  },
  {
    key: "broadcast",
    name: "Broadcasts",
    description: "One template sent to an audience; every event carries data.broadcastUid.",
    definitions: BROADCAST_EVENTS,
  },
  {
    key: "webhook",
    name: "Endpoint health",
    description:
      "Operational events about your webhook destinations, delivered to your other active destinations that subscribe to them.",
    definitions: OPERATIONAL_EVENTS,
  },
  {
    key: "billing",
    name: "Billing",
    description: "The account's money, sent to each active destination that subscribes, under its own sender.",
    definitions: BILLING_EVENTS,
  },
];

export const EVENT_GROUPS: readonly CatalogGroup[] = GROUPS.map(({ definitions, ...group }) => ({
  ...group,
  events: definitions.map((d) => ({ key: d.type, description: d.description })),
}));

export const EVENT_KEYS: readonly string[] = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.key));

const KEY_SET: ReadonlySet<string> = new Set(EVENT_KEYS);

export function isEventKey(value: unknown): value is string {
  return typeof value === "string" && KEY_SET.has(value);
}

/** The type of the signed test event (POST /webhooks/{uid}/test); not subscribable. */
export const TEST_EVENT_TYPE = TestEvent.type;

/**
 * The test event in the catalog: a destination receives it whatever it subscribes to, so it
 * is listed (with its body's schema) beside the endpoint-health events, but is no key to subscribe to.
 */
const TEST_EVENT: CatalogEvent = { key: TestEvent.type, description: TestEvent.description };

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

/** The data of GET /webhooks/events: every type with its payload's JSON Schema and an example. */
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

export type PayloadEntry = { schema: z.ZodType; example: Record<string, unknown> };

/** The delivered body's schema (the envelope around the definition's data) and an example, per type (webhook.test too). */
export function payloadEntries(): Record<string, PayloadEntry> {
  const out: Record<string, PayloadEntry> = {};
  for (const d of [...GROUPS.flatMap((g) => g.definitions), TestEvent]) {
    out[d.type] = { schema: envelopeSchema(d.type, d.schema), example: envelopeExample(d.type, d.example) };
  }
  return out;
}

type PayloadDoc = { schema: Record<string, unknown>; example: Record<string, unknown> };
let docs: Record<string, PayloadDoc> | undefined;

/** JSON Schema (draft 2020-12, from z.toJSONSchema) and example per type. */
export function payloadDocs(): Record<string, PayloadDoc> {
  if (docs) return docs;
  const out: Record<string, PayloadDoc> = {};
  for (const [key, entry] of Object.entries(payloadEntries())) {
    out[key] = {
      // Open to added fields, as every answer (lib/core/open-schema.ts).
      schema: openObjects(z.toJSONSchema(entry.schema, { io: "output" })) as Record<string, unknown>,
      example: entry.example,
    };
  }
  docs = out;
  return out;
}

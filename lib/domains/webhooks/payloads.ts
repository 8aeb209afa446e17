// The payload of every event key as a zod schema, with an example (docs/event-pipeline.md
// "Event catalog"). GET /webhooks/events serves each as JSON Schema (z.toJSONSchema) beside
// its example; lib/domains/webhooks/payloads.test.ts proves every example validates against its
// schema and that the emitters' data fits (the emitters are typed against these shapes).
import { z } from "zod";
import { openObjects } from "@/lib/core/open-schema";
import { PAUSE_REASONS, RECIPIENT_STATUSES } from "@/lib/domains/broadcasts/schemas";
import { PROVIDER_STATUSES } from "@/lib/domains/messages/status";

const Iso = z.string().describe("ISO 8601 timestamp (UTC)");

/** The Standard Webhooks body every destination receives (lib/domains/events/emit.ts buildPayload). */
const envelope = <T extends z.ZodType>(type: string, data: T) =>
  z.object({
    id: z.string().describe("Event id (evt_…)"),
    type: z.literal(type),
    createdAt: Iso,
    senderId: z.string().describe("The sender's phone number"),
    phoneNumberId: z.string().nullable(),
    data,
  });

export const StatusData = z.object({
  messageId: z.string(),
  messageUid: z
    .string()
    .optional()
    .describe("The message's uid in this service; on message.status.accepted, which the service emits when it sends"),
  billingUid: z
    .string()
    .nullable()
    .describe("The billing record of the status; null on message.status.accepted (not billed yet)"),
  recipientId: z.string().nullable(),
  status: z.enum(PROVIDER_STATUSES),
  previousStatus: z.string().nullable(),
  timestamp: Iso,
  pricing: z
    .object({
      billable: z.boolean().nullable(),
      billingClass: z.string().nullable(),
      pricingModel: z.string().nullable(),
      pricingCategory: z.string().nullable(),
      templateType: z.string().nullable(),
      pricingType: z.string().nullable(),
      rate: z.number(),
    })
    .nullable(),
  conversation: z.object({ id: z.string().nullable(), originType: z.string().nullable() }).nullable(),
  errors: z.array(
    z.object({ code: z.number().nullable(), title: z.string().nullable(), message: z.string().nullable() }).loose(),
  ),
  broadcastUid: z.string().optional().describe("Set when the message was sent by a broadcast"),
});

const inboundData = (type: string) =>
  z
    .object({
      messageId: z.string(),
      conversationUid: z.string().nullable(),
      from: z.string().nullable(),
      contactName: z.string().nullable(),
      timestamp: Iso,
      type: z.literal(type),
      [type]: z.unknown().describe(`The provider's ${type} object, as received`),
      context: z.unknown().describe("The provider's context (a reply's quoted message), or null"),
    })
    .loose();

export const TemplateData = z.object({
  templateUid: z.string(),
  providerTemplateId: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  quality: z.string().nullable(),
  update: z.unknown().describe("The provider's update object, as received"),
});

const ConversationBase = {
  conversationUid: z.string(),
  contactPhoneNumber: z.string(),
  contactName: z.string().nullable(),
};
export const ConversationCreatedData = z.object({
  ...ConversationBase,
  status: z.literal("OPEN"),
  origin: z.enum(["inbound", "outbound"]),
  createdAt: Iso,
});
export const ConversationClosedData = z.object({
  ...ConversationBase,
  status: z.literal("CLOSED"),
  closedAt: Iso,
  closedBy: z.string().nullable(),
});
export const ConversationAssignedData = z.object({
  ...ConversationBase,
  assignee: z
    .object({ email: z.string(), name: z.string().nullable() })
    .nullable()
    .describe("The member it is now assigned to; null: unassigned"),
  assignedBy: z
    .string()
    .nullable()
    .describe("The member's email or the API token's name that made the change; null: auto-assignment"),
  assignedAt: Iso,
});

export const ConversationHandoffData = z.object({
  ...ConversationBase,
  status: z.enum(["OPEN", "CLOSED"]),
  handoffAt: Iso,
  chatbotUid: z.string().describe("The chatbot that handed off"),
  chatbotName: z.string(),
  matchedRule: z.number().int().nullable().describe("The index of the rule with handoff: true that answered"),
  inboundMessageId: z.string().describe("The provider id of the contact's message that was answered"),
});

const OperationalBase = {
  webhookUid: z.string().describe("The destination in trouble (not the one receiving this event)"),
  name: z.string(),
  endpointUrl: z.string(),
  phoneNumber: z.string().describe("The sender phone number that destination belongs to"),
};
export const EndpointDisabledData = z.object({
  ...OperationalBase,
  status: z.literal("INACTIVE"),
  disabledAt: Iso,
  reason: z.string(),
  failingSince: Iso.nullable().describe("The first failure of the streak; no success since"),
  consecutiveFailures: z.number().int(),
});
export const DeliveryExhaustedData = z.object({
  ...OperationalBase,
  deliveryId: z.string().describe("The delivery that gave up (its webhook-id)"),
  eventId: z.string(),
  eventType: z.string(),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  failedAt: Iso,
});

const BroadcastBase = { broadcastUid: z.string(), timestamp: Iso };
const Estimate = z.object({
  recipients: z.number().int(),
  skipped: z.number().int(),
  cost: z.number(),
  currency: z.string(),
  durationSeconds: z.number().int(),
});
export const BroadcastStartedData = z.object({ ...BroadcastBase, status: z.literal("SENDING"), estimate: Estimate });
export const BroadcastPausedData = z.object({
  ...BroadcastBase,
  status: z.literal("PAUSED"),
  pauseReason: z.enum(PAUSE_REASONS).nullable().describe("null: a person paused it"),
  resumesAt: Iso.nullable().describe("When it resumes by itself (messaging_limit)"),
});
const Counts = z.object(
  Object.fromEntries(["total", ...RECIPIENT_STATUSES, "replied"].map((k) => [k, z.number().int()])),
);
export const BroadcastCompletedData = z.object({
  ...BroadcastBase,
  status: z.literal("COMPLETED"),
  counts: Counts,
  cost: z.number().describe("Billed so far (statuses keep arriving after completion)"),
});

/** billing.balance.low (docs/api/billing.md "Low balance"): the account's balance fell below its threshold. */
const BalanceLowData = z.object({
  balance: z.number().describe("The balance when it was noticed below the threshold (may be negative)"),
  threshold: z.number().describe("The account's low-balance threshold"),
  currency: z.string(),
  alertedAt: Iso,
});

/** webhook.test (POST /webhooks/{webhookUid}/test): sent to that destination only. */
export const TestEventData = z.object({
  message: z.string().describe("A line saying this is a test"),
  webhookUid: z.string().describe("The destination the test was sent to"),
});

const AT = "2026-11-23T10:15:00.000Z";
const base = (type: string) => ({
  id: "evt_01jexample000000000000000",
  type,
  createdAt: AT,
  senderId: "+15550100001",
  phoneNumberId: "104857600000001",
});

const INBOUND_EXAMPLES: Record<string, unknown> = {
  text: { body: "Hello, is my order on its way?" },
  image: { id: "media.1", mime_type: "image/jpeg", sha256: "abc123", caption: "The parcel" },
  audio: { id: "media.2", mime_type: "audio/ogg; codecs=opus", voice: true },
  video: { id: "media.3", mime_type: "video/mp4" },
  document: { id: "media.4", mime_type: "application/pdf", filename: "invoice.pdf" },
  sticker: { id: "media.5", mime_type: "image/webp", animated: false },
  location: { latitude: 52.52, longitude: 13.405, name: "Office" },
  contacts: [{ name: { formatted_name: "Ada Lovelace" }, phones: [{ phone: "+15550100002" }] }],
  interactive: { type: "button_reply", button_reply: { id: "yes", title: "Yes" } },
  button: { payload: "CONFIRM", text: "Confirm" },
  reaction: { message_id: "wamid.example.1", emoji: "👍" },
};

export type PayloadEntry = { schema: z.ZodType; example: Record<string, unknown> };

/** The payload schema and example of every event key (and of webhook.test). */
export function payloadEntries(): Record<string, PayloadEntry> {
  const out: Record<string, PayloadEntry> = {};
  for (const status of PROVIDER_STATUSES) {
    const type = `message.status.${status}`;
    out[type] = {
      schema: envelope(type, StatusData),
      example: {
        ...base(type),
        data: {
          messageId: "wamid.example.1",
          billingUid: "cm3example0001",
          recipientId: "15550100002",
          status,
          previousStatus: status === "accepted" ? null : "accepted",
          timestamp: AT,
          pricing:
            status === "sent"
              ? {
                  billable: true,
                  billingClass: "utility",
                  pricingModel: "PMP",
                  pricingCategory: "utility",
                  templateType: null,
                  pricingType: "regular",
                  rate: 0.004,
                }
              : null,
          conversation: status === "sent" ? { id: "conv.example", originType: "utility" } : null,
          errors: status === "failed" ? [{ code: 131026, title: "Message undeliverable", message: null }] : [],
        },
      },
    };
  }
  for (const [kind, content] of Object.entries(INBOUND_EXAMPLES)) {
    const type = `message.inbound.${kind}`;
    out[type] = {
      schema: envelope(type, inboundData(kind)),
      example: {
        ...base(type),
        data: {
          messageId: "wamid.example.2",
          conversationUid: "cm3conversation01",
          from: "15550100002",
          contactName: "Ada Lovelace",
          timestamp: AT,
          type: kind,
          [kind]: content,
          context: null,
        },
      },
    };
  }
  for (const [type, update] of [
    ["template.status_update", { event: "APPROVED", message_template_id: 1234567890 }],
    ["template.category_update", { new_category: "MARKETING", previous_category: "UTILITY" }],
    ["template.quality_update", { new_quality_score: "GREEN", previous_quality_score: "YELLOW" }],
  ] as const) {
    out[type] = {
      schema: envelope(type, TemplateData),
      example: {
        ...base(type),
        data: {
          templateUid: "cm3template0001",
          providerTemplateId: "1234567890",
          name: "order_update",
          language: "en_US",
          status: "APPROVED",
          category: "UTILITY",
          quality: "GREEN",
          update,
        },
      },
    };
  }
  const convo = {
    conversationUid: "cm3conversation01",
    contactPhoneNumber: "+15550100002",
    contactName: "Ada Lovelace",
  };
  out["conversation.created"] = {
    schema: envelope("conversation.created", ConversationCreatedData),
    example: {
      ...base("conversation.created"),
      data: { ...convo, status: "OPEN", origin: "inbound", createdAt: AT },
    },
  };
  out["conversation.closed"] = {
    schema: envelope("conversation.closed", ConversationClosedData),
    example: {
      ...base("conversation.closed"),
      data: { ...convo, status: "CLOSED", closedAt: AT, closedBy: "agent@example.com" },
    },
  };
  out["conversation.assigned"] = {
    schema: envelope("conversation.assigned", ConversationAssignedData),
    example: {
      ...base("conversation.assigned"),
      data: {
        ...convo,
        assignee: { email: "agent@example.com", name: "Grace Hopper" },
        assignedBy: "owner@example.com",
        assignedAt: AT,
      },
    },
  };
  out["conversation.handoff"] = {
    schema: envelope("conversation.handoff", ConversationHandoffData),
    example: {
      ...base("conversation.handoff"),
      data: {
        ...convo,
        status: "OPEN",
        handoffAt: AT,
        chatbotUid: "cbt_3f9a2c41d0e8",
        chatbotName: "Front desk",
        matchedRule: 2,
        inboundMessageId: "wamid.HBgLMTU1NTAxMDAwMDIVAgASGBQzQUI",
      },
    },
  };
  const bc = { broadcastUid: "bc_mwtr9dy580d00daf32ad1db4ff17", timestamp: AT };
  out["broadcast.started"] = {
    schema: envelope("broadcast.started", BroadcastStartedData),
    example: {
      ...base("broadcast.started"),
      data: {
        ...bc,
        status: "SENDING",
        estimate: { recipients: 1200, skipped: 14, cost: 30, currency: "USD", durationSeconds: 15 },
      },
    },
  };
  out["broadcast.paused"] = {
    schema: envelope("broadcast.paused", BroadcastPausedData),
    example: {
      ...base("broadcast.paused"),
      data: { ...bc, status: "PAUSED", pauseReason: "messaging_limit", resumesAt: "2026-11-24T08:02:11.000Z" },
    },
  };
  out["broadcast.completed"] = {
    schema: envelope("broadcast.completed", BroadcastCompletedData),
    example: {
      ...base("broadcast.completed"),
      data: {
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
    },
  };
  const trouble = {
    webhookUid: "cm3webhook00001",
    name: "Order system",
    endpointUrl: "https://orders.example.com/hooks",
    phoneNumber: "+15550100001",
  };
  out["webhook.endpoint.disabled"] = {
    schema: envelope("webhook.endpoint.disabled", EndpointDisabledData),
    example: {
      ...base("webhook.endpoint.disabled"),
      data: {
        ...trouble,
        status: "INACTIVE",
        disabledAt: AT,
        reason:
          "Disabled automatically: every delivery attempt failed since 2026-11-18T10:14:00.000Z (5 days without a success)",
        failingSince: "2026-11-18T10:14:00.000Z",
        consecutiveFailures: 212,
      },
    },
  };
  out["webhook.delivery.exhausted"] = {
    schema: envelope("webhook.delivery.exhausted", DeliveryExhaustedData),
    example: {
      ...base("webhook.delivery.exhausted"),
      data: {
        ...trouble,
        deliveryId: "msg_0f3c2a9d8b7e4c1a9f0e2d3c4b5a6978",
        eventId: "evt_01jexample000000000000001",
        eventType: "message.status.delivered",
        attempts: 6,
        lastStatusCode: 503,
        lastError: "HTTP 503",
        failedAt: AT,
      },
    },
  };
  out["billing.balance.low"] = {
    schema: envelope("billing.balance.low", BalanceLowData),
    example: {
      ...base("billing.balance.low"),
      data: { balance: 4.2175, threshold: 5, currency: "USD", alertedAt: AT },
    },
  };
  out["webhook.test"] = {
    schema: envelope("webhook.test", TestEventData),
    example: {
      ...base("webhook.test"),
      data: {
        message: "This is a test event from Switchboard. If you can read it, your endpoint works.",
        webhookUid: "cm3webhook00001",
      },
    },
  };
  return out;
}

let cached: Record<string, { schema: Record<string, unknown>; example: Record<string, unknown> }> | undefined;

/** JSON Schema (draft 2020-12, from z.toJSONSchema) and example per event key. */
export function payloadDocs(): Record<string, { schema: Record<string, unknown>; example: Record<string, unknown> }> {
  if (cached) return cached;
  const out: Record<string, { schema: Record<string, unknown>; example: Record<string, unknown> }> = {};
  for (const [key, entry] of Object.entries(payloadEntries())) {
    out[key] = {
      // Open to added fields, as every answer (lib/core/open-schema.ts).
      schema: openObjects(z.toJSONSchema(entry.schema, { io: "output" })) as Record<string, unknown>,
      example: entry.example,
    };
  }
  cached = out;
  return out;
}

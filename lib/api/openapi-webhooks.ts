// The OpenAPI 3.1 `webhooks` section: one entry per event type a destination may receive
// (the catalog of GET /webhooks/events, webhook.test included), each the POST the service
// makes to a destination, with the delivered body's JSON Schema and an example. The schemas
// are the catalog's (lib/domains/webhooks/catalog.ts, from each event's definition): one source for the catalog answer,
// the reference page and the test that validates real deliveries against this section.
import { catalogGroups, payloadDocs } from "@/lib/domains/webhooks/catalog";

type Json = Record<string, unknown>;

export type OpenApiWebhook = {
  post: {
    operationId: string;
    summary: string;
    description: string;
    tags: string[];
    parameters: Json[];
    requestBody: { required: true; content: { "application/json": { schema: Json; example: unknown } } };
    responses: Record<string, Json>;
    security: [];
  };
};

/** The tag of every event entry (listed with the API's tags, described there). */
export const EVENTS_TAG = "Webhook events";
export const EVENTS_TAG_DESCRIPTION =
  "What the service POSTs to your webhook destinations: one entry per event type, with the body's schema";

const header = (name: string, description: string, example: string): Json => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
  example,
});

// Standard Webhooks headers (docs/integrators/webhooks.md "Signatures" says how to verify them).
const HEADERS = [
  header(
    "webhook-id",
    "The delivery's id: the same on every attempt and redelivery; deduplicate on it",
    "msg_0f3c2a9d8b7e4c1a9f0e2d3c4b5a6978",
  ),
  header("webhook-timestamp", "Unix seconds of this attempt; refuse one too far from your clock", "1763892900"),
  header(
    "webhook-signature",
    "v1,<base64 HMAC-SHA256 of id.timestamp.body> with the destination's signing secret; during a rotation a second, space-separated signature with the previous one",
    "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  ),
];

const RESPONSES: Record<string, Json> = {
  "200": { description: "Any 2xx within the destination's timeoutMs acknowledges the delivery" },
  "410": { description: "Gone: the delivery fails at once, without retries, and the destination becomes INACTIVE" },
  default: {
    description:
      "Any other answer, or none within timeoutMs, is a failed attempt: retried with exponential backoff up to retryMaxAttempts (a 429's Retry-After is honoured)",
  },
};

/** "message.status.accepted" → "eventMessageStatusAccepted". */
const operationIdOf = (type: string) =>
  `event${type
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join("")}`;

/** The body's schema as OpenAPI 3.1 holds it (its dialect is the document's). */
function bodySchemaOf(schema: Json): Json {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** The section: event type → its delivery, in catalog order. */
export function webhooksSection(): Record<string, OpenApiWebhook> {
  const docs = payloadDocs();
  const out: Record<string, OpenApiWebhook> = {};
  for (const group of catalogGroups()) {
    for (const event of group.events) {
      const doc = docs[event.key];
      if (!doc) throw new Error(`The event ${event.key} has no payload schema (lib/domains/webhooks/payloads.ts)`);
      const how = event.subscribable ? `Sent to each active destination that subscribes to ${event.key}.` : "";
      out[event.key] = {
        post: {
          operationId: operationIdOf(event.key),
          summary: event.key,
          description: `${event.description} ${group.name}: ${group.description} ${how}`.replace(/\s+/g, " ").trim(),
          tags: [EVENTS_TAG],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { "application/json": { schema: bodySchemaOf(doc.schema), example: doc.example } },
          },
          responses: RESPONSES,
          security: [],
        },
      };
    }
  }
  return out;
}

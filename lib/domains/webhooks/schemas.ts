// One zod module for webhook destinations: create and update bodies, list queries and
// the public shapes. The API router, dashboard forms and the OpenAPI document use these.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { ResourceName } from "@/lib/core/resource-name";
import { hasNoControlChars } from "@/lib/core/storable-text";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { EVENT_KEYS, isEventKey } from "./catalog";

export const WEBHOOK_STATUSES = ["ACTIVE", "INACTIVE"] as const;
export const WebhookStatus = z.enum(WEBHOOK_STATUSES, { error: "status must be ACTIVE or INACTIVE" });

export const TIMEOUT_MS = { min: 1_000, max: 30_000, default: 10_000 } as const;
export const RETRY_MAX_ATTEMPTS = { min: 0, max: 10, default: 5 } as const;

const Name = ResourceName;

// Only the shape here: the URL rules and the SSRF checks (WEBHOOK_ENDPOINT_INVALID,
// WEBHOOK_ENDPOINT_REQUIRES_HTTPS) live in url-guard.ts, which the service calls.
const EndpointUrl = z
  .string({ error: "endpointUrl must be a string" })
  .trim()
  .min(1, "endpointUrl is required")
  .refine((v) => hasNoControlChars(v), "endpointUrl must not contain control characters")
  .describe("HTTPS receiver URL; must resolve to a public address");

const Events = z
  .array(
    // The enum is for the OpenAPI document; the superRefine below names the unsupported key.
    z.string({ error: "each event must be a string" }).meta({ enum: [...EVENT_KEYS] } as Record<string, unknown>),
    { error: "events must be an array of event keys" },
  )
  .min(1, "events must list at least one event key")
  .superRefine((events, ctx) => {
    const seen = new Set<string>();
    events.forEach((event, i) => {
      if (!isEventKey(event)) {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `Unsupported event "${event}"; see GET /api/v2/webhooks/events`,
        });
      } else if (seen.has(event)) {
        ctx.addIssue({ code: "custom", path: [i], message: `Duplicate event "${event}"` });
      }
      seen.add(event);
    });
  })
  .describe("Event keys from GET /webhooks/events");

const TimeoutMs = z
  .number({ error: "timeoutMs must be a number of milliseconds" })
  .int("timeoutMs must be an integer")
  .min(TIMEOUT_MS.min, `timeoutMs must be between ${TIMEOUT_MS.min} and ${TIMEOUT_MS.max}`)
  .max(TIMEOUT_MS.max, `timeoutMs must be between ${TIMEOUT_MS.min} and ${TIMEOUT_MS.max}`);

const MaxDeliveriesPerSecond = z
  .number({ error: "maxDeliveriesPerSecond must be a number (or null for no cap)" })
  .int("maxDeliveriesPerSecond must be an integer")
  .min(1, "maxDeliveriesPerSecond must be between 1 and 1000 (or null for no cap)")
  .max(1000, "maxDeliveriesPerSecond must be between 1 and 1000 (or null for no cap)")
  .describe("At most this many deliveries start per second, across every worker (null: no cap)");

const RetryEnabled = z.boolean({ error: "retryEnabled must be true or false" });

const RetryMaxAttempts = z
  .number({ error: "retryMaxAttempts must be a number" })
  .int("retryMaxAttempts must be an integer")
  .min(
    RETRY_MAX_ATTEMPTS.min,
    `retryMaxAttempts must be between ${RETRY_MAX_ATTEMPTS.min} and ${RETRY_MAX_ATTEMPTS.max}`,
  )
  .max(
    RETRY_MAX_ATTEMPTS.max,
    `retryMaxAttempts must be between ${RETRY_MAX_ATTEMPTS.min} and ${RETRY_MAX_ATTEMPTS.max}`,
  );

// Headers the delivery itself sets or that proxies and servers interpret.
const RESERVED_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "authorization",
  "connection",
  "content-encoding",
  "content-length",
  "content-type",
  "cookie",
  "expect",
  "host",
  "keep-alive",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "user-agent",
]);
const RESERVED_PREFIXES = ["webhook-", "proxy-", "sec-"];
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_HEADERS.has(lower) || RESERVED_PREFIXES.some((p) => lower.startsWith(p));
}

const VerificationHeaderKey = z
  .string({ error: "verificationHeaderKey must be a string" })
  .trim()
  .min(1, "verificationHeaderKey must not be empty")
  .max(100, "verificationHeaderKey must be at most 100 characters")
  .regex(HEADER_TOKEN, "verificationHeaderKey must be a valid HTTP header name (letters, digits and - _ . etc.)")
  .refine((name) => !isReservedHeader(name), {
    error: (issue) => `verificationHeaderKey "${String(issue.input)}" is a reserved header; choose another name`,
  })
  .describe("Name of the header that carries the verification token, e.g. X-Webhook-Token");

const VerificationToken = z
  .string({ error: "verificationToken must be a string (use clearVerificationToken: true to remove it)" })
  .min(1, "verificationToken must not be empty")
  .max(512, "verificationToken must be at most 512 characters")
  .regex(
    /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/,
    "verificationToken must be printable ASCII without leading or trailing spaces",
  );

type ObjectIssue = { code?: string; input?: unknown; keys?: readonly string[] };
// Unknown keys are refused (a typo like "endpointURL" must not be silently dropped).
const objectError = (missing: string) => (issue: ObjectIssue) =>
  issue.code === "unrecognized_keys"
    ? `Unknown webhook field(s): ${(issue.keys ?? []).join(", ")}`
    : issue.input === undefined
      ? missing
      : "webhook must be an object";

const tokenNeedsHeader = (w: { verificationToken?: string | null; verificationHeaderKey?: string | null }) =>
  !w.verificationToken || Boolean(w.verificationHeaderKey);

// What create fills in when the body leaves a setting out.
const CreateDefaults = {
  status: WebhookStatus.default("ACTIVE"),
  timeoutMs: TimeoutMs.default(TIMEOUT_MS.default),
  retryEnabled: RetryEnabled.default(true),
  retryMaxAttempts: RetryMaxAttempts.default(RETRY_MAX_ATTEMPTS.default),
};

/** The settings a new webhook gets when they are left out: the dashboard form starts from these. */
export const webhookCreateDefaults = () => z.object(CreateDefaults).parse({});

export const WebhookCreateInput = z
  .strictObject(
    {
      name: Name,
      endpointUrl: EndpointUrl,
      events: Events,
      ...CreateDefaults,
      verificationHeaderKey: VerificationHeaderKey.nullish(),
      verificationToken: VerificationToken.nullish(),
      maxDeliveriesPerSecond: MaxDeliveriesPerSecond.nullish(),
    },
    { error: objectError("webhook is required: an object with name, endpointUrl and events") },
  )
  .refine(tokenNeedsHeader, {
    path: ["verificationHeaderKey"],
    message: "verificationHeaderKey is required when a verificationToken is given",
  });
export type WebhookCreateInput = z.output<typeof WebhookCreateInput>;

export const WebhookCreateBody = z.object({
  senderId: z.string({ error: "senderId must be a phone number string" }).optional(),
  webhook: WebhookCreateInput,
});

const UPDATE_FIELDS =
  "name, endpointUrl, events, status, timeoutMs, retryEnabled, retryMaxAttempts, verificationHeaderKey, verificationToken, clearVerificationToken, maxDeliveriesPerSecond";
const NO_UPDATE_FIELD = `At least one webhook field is required to update (${UPDATE_FIELDS})`;

export const WebhookPatch = z
  .strictObject(
    {
      name: Name.optional(),
      endpointUrl: EndpointUrl.optional(),
      events: Events.optional(),
      status: WebhookStatus.optional(),
      timeoutMs: TimeoutMs.optional(),
      retryEnabled: RetryEnabled.optional(),
      retryMaxAttempts: RetryMaxAttempts.optional(),
      /** null removes the header (and needs the token cleared too). */
      verificationHeaderKey: VerificationHeaderKey.nullable().optional(),
      verificationToken: VerificationToken.optional(),
      clearVerificationToken: z.boolean({ error: "clearVerificationToken must be true or false" }).optional(),
      maxDeliveriesPerSecond: MaxDeliveriesPerSecond.nullable().optional(),
    },
    { error: objectError(NO_UPDATE_FIELD) },
  )
  .superRefine((w, ctx) => {
    if (w.verificationToken !== undefined && w.clearVerificationToken === true) {
      ctx.addIssue({
        code: "custom",
        path: ["clearVerificationToken"],
        message: "verificationToken and clearVerificationToken: true cannot be sent together",
      });
    }
    const changes = Object.entries(w).filter(
      ([k, v]) => v !== undefined && !(k === "clearVerificationToken" && v === false),
    );
    if (changes.length === 0) ctx.addIssue({ code: "custom", message: NO_UPDATE_FIELD });
  });
export type WebhookPatch = z.output<typeof WebhookPatch>;

export const WebhookUpdateBody = z.object({
  senderId: z.string({ error: "senderId must be a phone number string" }).optional(),
  webhook: WebhookPatch,
});

const EventFilter = z.string().superRefine((event, ctx) => {
  if (!isEventKey(event)) {
    ctx.addIssue({ code: "custom", message: `Unsupported event "${event}"; see GET /api/v2/webhooks/events` });
  }
});

/** Path ids: a value that is not an id we issue names nothing, and is not looked up. */
export const WebhookUid = PublicId.describe("The webhook destination's uid");
export const DeliveryId = PublicId.describe("The delivery's id (deliveryId in the delivery log)");

export const WebhookListQuery = PageQuery.extend({
  senderId: z.string().optional().describe("Sender phone number (default sender when omitted)"),
  status: WebhookStatus.optional(),
  event: EventFilter.optional().describe("Only webhooks subscribed to this event key"),
});
export type WebhookListQuery = z.output<typeof WebhookListQuery>;

export const SenderQuery = z.object({
  senderId: z.string().optional().describe("Sender phone number (default sender when omitted)"),
});

export const DELIVERY_STATUSES = ["PENDING", "SUCCEEDED", "FAILED", "CANCELLED"] as const;

export const DeliveryListQuery = PageQuery.extend({
  senderId: z.string().optional().describe("Sender phone number (default sender when omitted)"),
  status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
});
export type DeliveryListQuery = z.output<typeof DeliveryListQuery>;

/** Grace of a rotated secret, in seconds: both secrets sign until it ends (docs/event-pipeline.md). */
export const ROTATION_GRACE_SECONDS = { min: 0, max: 7 * 24 * 3600, default: 24 * 3600 } as const;

export const RotateSecretBody = z.object({
  senderId: z.string({ error: "senderId must be a phone number string" }).optional(),
  gracePeriodSeconds: z
    .number({ error: "gracePeriodSeconds must be a number of seconds" })
    .int("gracePeriodSeconds must be an integer")
    .min(ROTATION_GRACE_SECONDS.min, "gracePeriodSeconds must be between 0 and 604800 (7 days)")
    .max(ROTATION_GRACE_SECONDS.max, "gracePeriodSeconds must be between 0 and 604800 (7 days)")
    .default(ROTATION_GRACE_SECONDS.default)
    .describe("How long the previous secret keeps signing too (default 86400 = 24 h, at most 7 days)"),
});
export type RotateSecretBody = z.output<typeof RotateSecretBody>;

// Public shapes (OpenAPI "data" schemas). Nothing secret has a field here.
export const WebhookHealthPublic = z
  .object({
    breakerState: z
      .enum(["CLOSED", "OPEN", "HALF_OPEN"])
      .describe("CLOSED: delivering; OPEN: paused until nextProbeAt; HALF_OPEN: one probe delivery in flight"),
    consecutiveFailures: z.number().int().describe("Failed attempts since the last success"),
    failingSince: isoTimestamp().nullable().describe("The first failure since the last success (null: healthy)"),
    breakerOpenedAt: isoTimestamp().nullable(),
    nextProbeAt: isoTimestamp().nullable().describe("When the open breaker lets one probe delivery through"),
    recoveringUntil: isoTimestamp()
      .nullable()
      .describe("Deliveries ramp up (1, 2, 4, ... per second) until then after the breaker closed"),
    thresholds: z.object({
      failuresToOpen: z.number().int(),
      probeBackoffMinSeconds: z.number().int(),
      probeBackoffMaxSeconds: z.number().int(),
      disableAfterSeconds: z.number().int(),
      recoveryRampSeconds: z.number().int(),
    }),
  })
  .describe(
    "Endpoint health: the destination's circuit breaker (CLOSED: delivering; OPEN: paused after repeated failures; HALF_OPEN: trying again)",
  )
  .meta({ id: "WebhookHealth" });

export const WebhookPublic = z
  .object({
    webhookUid: z.string(),
    uid: z.string(),
    name: z.string(),
    endpointUrl: z.string(),
    phoneNumber: z.string(),
    phoneNumberId: z.string().nullable(),
    events: z.array(z.string()),
    status: WebhookStatus,
    timeoutMs: z.number().int(),
    retryEnabled: z.boolean(),
    retryMaxAttempts: z.number().int(),
    verificationHeaderKey: z.string().nullable(),
    hasVerificationToken: z.boolean(),
    maxDeliveriesPerSecond: z.number().int().nullable(),
    secretRotatedAt: isoTimestamp().nullable().describe("When the signing secret was last rotated"),
    previousSecretExpiresAt: isoTimestamp()
      .nullable()
      .describe("Until then every delivery is signed with the previous secret too (null: one signature)"),
    disabledAt: isoTimestamp()
      .nullable()
      .describe("When the service disabled the destination (5 days of failures, or 410 Gone); null otherwise"),
    disabledReason: z.string().nullable().describe("Why the service disabled it (null unless disabledAt is set)"),
    health: WebhookHealthPublic,
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Webhook" });
export type WebhookPublic = z.infer<typeof WebhookPublic>;

export const WebhookListPublic = z.object({
  webhooks: z.array(WebhookPublic),
  items: z.array(WebhookPublic),
  pagination: PageBlockSchema,
});

export const CatalogPublic = z
  .object({
    groups: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        description: z.string(),
        events: z.array(
          z.object({
            key: z.string(),
            description: z.string(),
            subscribable: z
              .boolean()
              .describe("false for webhook.test, which a destination receives only when it is sent a test event"),
            schema: z.record(z.string(), z.unknown()).describe("JSON Schema (draft 2020-12) of the delivered body"),
            example: z.record(z.string(), z.unknown()).describe("An example delivered body"),
          }),
        ),
      }),
    ),
    eventKeys: z.array(z.string()).describe("The keys a destination may subscribe to"),
  })
  .meta({ id: "EventCatalog" });

export const AttemptPublic = z
  .object({
    attempt: z.number().int(),
    startedAt: isoTimestamp(),
    statusCode: z.number().int().nullable(),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable(),
  })
  .meta({ id: "WebhookDeliveryAttempt" });

export const DeliveryPublic = z
  .object({
    deliveryId: z.string().describe("Also the webhook-id header of every attempt"),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    nextAttemptAt: isoTimestamp().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
    attemptLog: z.array(AttemptPublic),
  })
  .meta({ id: "WebhookDelivery" });
export type DeliveryPublic = z.infer<typeof DeliveryPublic>;

export const DeliveryListPublic = z.object({
  webhookUid: z.string(),
  deliveries: z.array(DeliveryPublic),
  items: z.array(DeliveryPublic),
  pagination: PageBlockSchema,
});

export const TestEventPublic = z
  .object({ eventId: z.string(), deliveryId: z.string(), webhookUid: z.string() })
  .meta({ id: "WebhookTestEvent" });

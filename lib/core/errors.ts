// One error type, one status table: the router, dashboard handlers and OpenAPI read it.
export const ERROR_STATUS = {
  MISSING_AUTH_TOKEN: 401,
  INVALID_AUTH_TOKEN: 401,
  CUSTOMER_TOKEN_REQUIRED: 403,
  TOKEN_SCOPE_NOT_ALLOWED: 403,
  /** A restricted API token without the route's permission (details.permission; docs/tokens.md). */
  TOKEN_PERMISSION_DENIED: 403,
  SENDER_NOT_ALLOWED: 403,
  FEATURE_NOT_AVAILABLE: 403,
  SENDER_NOT_FOUND: 404,
  WHATSAPP_SETUP_INCOMPLETE: 400,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  /** The path exists, but not with this method (the Allow header lists those it has). */
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_CONTENT_TYPE: 415,
  /** The body is over its limit (details.limitBytes), counted while it streams. */
  PAYLOAD_TOO_LARGE: 413,
  WEBHOOK_ENDPOINT_INVALID: 400,
  WEBHOOK_ENDPOINT_REQUIRES_HTTPS: 400,
  WEBHOOK_NOT_FOUND: 404,
  /** The recovery job does not exist for this webhook (docs/webhook-recovery.md). */
  WEBHOOK_RECOVERY_NOT_FOUND: 404,
  DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND: 400,
  // Messaging (docs/messaging.md).
  /** The recipient is on the sender's blacklist. */
  RECIPIENT_BLACKLISTED: 400,
  /** The ledger balance does not cover the message's expected price. */
  INSUFFICIENT_BALANCE: 402,
  /** The template does not exist for this customer and language. */
  TEMPLATE_NOT_FOUND: 404,
  /** The template exists but is not APPROVED. */
  TEMPLATE_NOT_APPROVED: 400,
  /** A template with this name and language exists already. */
  TEMPLATE_ALREADY_EXISTS: 409,
  /** The sender is disconnected (not reconnecting): nothing can be sent. */
  SENDER_DISCONNECTED: 409,
  /** Same Idempotency-Key with a different request body. */
  IDEMPOTENCY_KEY_REUSED: 409,
  /** The first request with this Idempotency-Key is still running. */
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  /** The provider's throughput limits refused the message even after our retries. */
  PROVIDER_RATE_LIMITED: 429,
  /** The provider refused the message (details.providerCode says why). */
  PROVIDER_REJECTED: 400,
  /** The provider could not be reached or answered ambiguously; read the report before resending. */
  PROVIDER_UNAVAILABLE: 502,
  ORDER_NOT_FOUND: 404,
  // Conversations (docs/conversations.md).
  /** A free-form message outside the 24-hour customer service window (details: windowExpiresAt, lastInboundAt). */
  CUSTOMER_SERVICE_WINDOW_CLOSED: 400,
  /** A reaction to a message older than 30 days: the provider refuses it (docs/messaging.md "Reactions"). */
  REACTION_TOO_OLD: 400,
  CONVERSATION_NOT_FOUND: 404,
  /** An order with this reference exists already (follow it up with POST /orders/{orderUid}/send). */
  ORDER_REFERENCE_EXISTS: 409,
  /** The chatbot does not exist for this customer and sender (docs/chatbots.md). */
  CHATBOT_NOT_FOUND: 404,
  AUTOMATION_NOT_FOUND: 404,
  /** No such SLA policy for this account (docs/reports.md "SLA policies"). */
  SLA_POLICY_NOT_FOUND: 404,
  /** The broadcast does not exist for this customer and sender (docs/broadcasts.md). */
  BROADCAST_NOT_FOUND: 404,
  /** The broadcast's status does not allow the change (details.status names it; docs/broadcasts.md). */
  BROADCAST_STATE_CONFLICT: 409,
  /** No such segment for this account (docs/automation.md "Segments"). */
  SEGMENT_NOT_FOUND: 404,
  // Labels (docs/automation.md).
  /** No such label for this account; details.names lists the unknown names of a labels change. */
  LABEL_NOT_FOUND: 404,
  /** A label with this name exists already in the account, whatever the case (details.name). */
  LABEL_EXISTS: 409,
  /** A phone number the account has never seen: in none of its contact books and no conversation. */
  CONTACT_NOT_FOUND: 404,
  // Media (docs/media.md).
  /** No such media for this account (another account's id too), or it was deleted. */
  MEDIA_NOT_FOUND: 404,
  /** The file's bytes are no type the provider takes, or not the type declared (docs/media.md "Types and limits"). */
  MEDIA_TYPE_NOT_SUPPORTED: 415,
  /** The file is over its kind's limit (details: kind, maxBytes). */
  MEDIA_TOO_LARGE: 413,
  /** The account keeps MEDIA_QUOTA_MB of media already (details: quotaBytes, usedBytes). */
  MEDIA_QUOTA_EXCEEDED: 413,
  /** A Range outside the file (Content-Range names its size). */
  RANGE_NOT_SATISFIABLE: 416,
  /** A send names a media that is not ready: still being fetched, unavailable or expired (details.status). */
  MEDIA_NOT_READY: 409,
  /** A rate-limit window is exhausted (Retry-After says when the next one opens; docs/api/limits.md). */
  RATE_LIMITED: 429,
  /** A dashboard mutation or server action that did not come from the dashboard's own pages. */
  CROSS_ORIGIN_REQUEST: 403,
  /** A dashboard member whose role lacks the permission (lib/domains/auth/permissions.ts). */
  PERMISSION_DENIED: 403,
  UNAUTHORIZED: 401,
  CONFLICT: 409,
  REQUEST_FAILED: 500,
  /** The database cannot be reached right now: retry after Retry-After seconds (docs/api/errors.md). */
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

// Two refusals travel on the wire as REQUEST_FAILED, the contract's code when no specific one
// applies (docs/api/errors.md): a method the path does not have (405, with Allow) and an
// exhausted rate-limit window (429, with Retry-After and details.policy). Clients written
// against the contract branch on those statuses, not on a code; every other refusal,
// PAYLOAD_TOO_LARGE and CROSS_ORIGIN_REQUEST included, travels with its own code.
const WIRE_CODE: Partial<Record<ErrorCode, string>> = {
  METHOD_NOT_ALLOWED: "REQUEST_FAILED",
  RATE_LIMITED: "REQUEST_FAILED",
};

/** The error_code a code travels as on the wire. */
export const wireCodeOf = (code: ErrorCode): string => WIRE_CODE[code] ?? code;

/** Every error_code a client can receive (the OpenAPI enum). */
export const ERROR_CODES: readonly string[] = [...new Set((Object.keys(ERROR_STATUS) as ErrorCode[]).map(wireCodeOf))];

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  get wireCode(): string {
    return wireCodeOf(this.code);
  }
}

export const notFound = (what = "Resource") => new ApiError("NOT_FOUND", `${what} not found`);

// PostgreSQL refuses text with U+0000 (SQLSTATE 22021). Inputs are checked for it where
// they enter; this is the net for any path that still reaches the database with one.
const NUL_IN_TEXT = "22021";

/** A database refusal caused by the caller's input, as the contract error it is; else undefined. */
export function inputErrorFrom(error: unknown): ApiError | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown; originalCode?: unknown }; message?: unknown };
  const codes = [e?.code, e?.cause?.code, e?.cause?.originalCode];
  const nul =
    codes.includes(NUL_IN_TEXT) || /invalid byte sequence for encoding "UTF8": 0x00/.test(String(e?.message ?? ""));
  return nul
    ? new ApiError("VALIDATION_FAILED", "The input contains a NUL character (U+0000), which no field accepts")
    : undefined;
}

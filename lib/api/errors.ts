// One error type, one status table: the router, dashboard handlers and OpenAPI read it.
export const ERROR_STATUS = {
  MISSING_AUTH_TOKEN: 401,
  INVALID_AUTH_TOKEN: 401,
  CUSTOMER_TOKEN_REQUIRED: 403,
  TOKEN_SCOPE_NOT_ALLOWED: 403,
  SENDER_NOT_ALLOWED: 403,
  FEATURE_NOT_AVAILABLE: 403,
  SENDER_NOT_FOUND: 404,
  WHATSAPP_SETUP_INCOMPLETE: 400,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_CONTENT_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  WEBHOOK_ENDPOINT_INVALID: 400,
  WEBHOOK_ENDPOINT_REQUIRES_HTTPS: 400,
  WEBHOOK_NOT_FOUND: 404,
  DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND: 400,
  RATE_LIMITED: 429,
  UNAUTHORIZED: 401,
  CONFLICT: 409,
  REQUEST_FAILED: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

// Codes that travel on the wire as REQUEST_FAILED (the contract's code when no specific
// one applies), keeping their own HTTP status.
const WIRE_CODE: Partial<Record<ErrorCode, string>> = {
  METHOD_NOT_ALLOWED: "REQUEST_FAILED",
  RATE_LIMITED: "REQUEST_FAILED",
  PAYLOAD_TOO_LARGE: "REQUEST_FAILED",
};

/** The error_code a code travels as on the wire. */
export const wireCodeOf = (code: ErrorCode): string => WIRE_CODE[code] ?? code;

/** Every error_code a client can receive (the OpenAPI enum). */
export const WIRE_ERROR_CODES: readonly string[] = [
  ...new Set((Object.keys(ERROR_STATUS) as ErrorCode[]).map(wireCodeOf)),
];

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

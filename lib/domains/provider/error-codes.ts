// Provider error codes we act on (docs/api/errors.md "When to retry").
export const THROUGHPUT_EXCEEDED = 130429;
export const PAIR_RATE_LIMIT = 131056;
export const THROUGHPUT_UPGRADE = 131057;
export const TEMPLATE_NOT_FOUND = 132001;
export const UNDELIVERABLE = 131026;
/** The business account reached its messaging limit (unique contacts per 24 hours): a failed status. */
export const MESSAGING_LIMIT_HIT = 131048;
/** The provider's marketing frequency cap for that user: a failed status; not to be retried within 24 hours. */
export const MARKETING_CAP = 131049;
/** A free-form message outside the customer service window (service-window.ts): a failed status. */
export const WINDOW_CLOSED = 131047;

/** Throughput signals: the request was refused before sending, so a retry cannot duplicate. */
export const RETRYABLE_CODES: ReadonlySet<number> = new Set([THROUGHPUT_EXCEEDED, PAIR_RATE_LIMIT, THROUGHPUT_UPGRADE]);

export function isRetryableCode(code: number): boolean {
  return RETRYABLE_CODES.has(code);
}

export const CODE_TITLES: Record<number, string> = {
  [THROUGHPUT_EXCEEDED]: "Rate limit hit: cloud API message throughput has been reached",
  [PAIR_RATE_LIMIT]: "(Business Account, Consumer Account) pair rate limit hit",
  [THROUGHPUT_UPGRADE]: "Business account is in maintenance mode (throughput upgrade)",
  [TEMPLATE_NOT_FOUND]: "Template name does not exist in the translation",
  [UNDELIVERABLE]: "Message undeliverable",
  [MESSAGING_LIMIT_HIT]: "Spam rate limit hit",
  [MARKETING_CAP]: "This message was not delivered to maintain healthy ecosystem engagement",
  131047: "Re-engagement message: more than 24 hours have passed since the recipient last replied",
  131050: "The user has stopped marketing messages from this business",
  131031: "Business account locked",
  131051: "Unsupported message type",
  131053: "Media upload error",
  131000: "Something went wrong",
  // Template parameter refusals (lib/domains/templates/parameters.ts).
  131008: "Required parameter is missing",
  131009: "Parameter value is not valid",
  132000: "Number of parameters does not match the expected number of params",
  132012: "Parameter format does not match format in the created template",
};

/** A provider-style numeric id (15 digits), as the provider gives templates. */
export function numericId(): string {
  return `${1 + Math.floor(Math.random() * 9)}${String(Math.floor(Math.random() * 1e14)).padStart(14, "0")}`;
}

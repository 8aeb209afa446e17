// Messaging refusals. They travel as ApiError (so the router shapes them like any other
// error) with their own error_code and status from this one table; providerCode is what
// the provider-compatible routes report as error.code (spec 7.1).
// TODO(lead): fold MESSAGING_ERROR_STATUS into ERROR_STATUS in lib/api/errors.ts.
import { ApiError } from "@/lib/api/errors";

export const MESSAGING_ERROR_STATUS = {
  /** The recipient is on the sender's blacklist. */
  RECIPIENT_BLACKLISTED: 400,
  /** The ledger balance (credits - debits) does not cover the message's expected price. */
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
  /** An order with this reference exists already (follow it up with POST /orders/{orderUid}/send). */
  ORDER_REFERENCE_EXISTS: 409,
} as const satisfies Record<string, number>;

export type MessagingErrorCode = keyof typeof MESSAGING_ERROR_STATUS;

export class MessagingError extends ApiError {
  readonly messagingCode: MessagingErrorCode;

  constructor(
    code: MessagingErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super("REQUEST_FAILED", message, details, headers);
    this.name = "MessagingError";
    this.messagingCode = code;
  }

  override get status(): number {
    return MESSAGING_ERROR_STATUS[this.messagingCode];
  }

  override get wireCode(): string {
    return this.messagingCode;
  }
}

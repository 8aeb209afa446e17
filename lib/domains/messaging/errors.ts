// Messaging refusals: ApiErrors whose codes and statuses live in lib/api/errors.ts
// (ERROR_STATUS, "Messaging"). A named subclass so that send paths can tell a refusal of
// ours from an unexpected failure.
import { ApiError, type ErrorCode } from "@/lib/core/errors";

/** The codes every send can answer (docs/messaging.md): the send routes list them in their definitions. */
export const DELIVERY_ERRORS = [
  "RECIPIENT_BLACKLISTED",
  "INSUFFICIENT_BALANCE",
  "TEMPLATE_NOT_FOUND",
  "TEMPLATE_NOT_APPROVED",
  "SENDER_DISCONNECTED",
  "PROVIDER_RATE_LIMITED",
  "PROVIDER_REJECTED",
  "PROVIDER_UNAVAILABLE",
] as const satisfies readonly ErrorCode[];

/** What a send naming a file by mediaId can answer besides (docs/media.md "Sending media"): its checks refuse first. */
export const MEDIA_SEND_ERRORS = [
  "MEDIA_NOT_FOUND",
  "MEDIA_NOT_READY",
  "MEDIA_TYPE_NOT_SUPPORTED",
] as const satisfies readonly ErrorCode[];

const MESSAGING_CODES = [...DELIVERY_ERRORS, "ORDER_NOT_FOUND", "ORDER_REFERENCE_EXISTS"] as const;

export type MessagingErrorCode = (typeof MESSAGING_CODES)[number];

export class MessagingError extends ApiError {
  constructor(
    code: MessagingErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(code, message, details, headers);
    this.name = "MessagingError";
  }
}

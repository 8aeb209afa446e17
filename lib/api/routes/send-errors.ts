// The domain codes every send route can answer (docs/messaging.md), shared by the message
// and order send routes.
import type { ErrorCode } from "@/lib/core/errors";

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

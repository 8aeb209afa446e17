// Public shapes of webhook destinations and deliveries (docs/api/webhooks.md "Destinations"). Every field is named
// here, so a new column never leaks and the secrets have no path out.
import type { Sender, WebhookAttempt, WebhookDelivery, WebhookDestination } from "@/lib/generated/prisma/client";
import { BREAKER, publicThresholds } from "./breaker";
import type { DeliveryPublic, WebhookPublic } from "./schemas";

export type WebhookRow = WebhookDestination & { sender: Pick<Sender, "phoneNumber" | "phoneNumberId"> };

export const toPublicWebhook = (row: WebhookRow): WebhookPublic => toPublicWebhookAt(row, new Date());

/** As at `now`, which decides what has expired (the previous secret, the recovery ramp): examples pass their own. */
export function toPublicWebhookAt(row: WebhookRow, now: Date): WebhookPublic {
  return {
    webhookUid: row.id,
    uid: row.id,
    name: row.name,
    endpointUrl: row.endpointUrl,
    phoneNumber: row.sender.phoneNumber,
    phoneNumberId: row.sender.phoneNumberId,
    events: [...row.events],
    status: row.status,
    timeoutMs: row.timeoutMs,
    retryEnabled: row.retryEnabled,
    retryMaxAttempts: row.retryMaxAttempts,
    verificationHeaderKey: row.verificationHeaderKey,
    hasVerificationToken: row.verificationTokenEnc !== null && row.verificationTokenEnc !== "",
    maxDeliveriesPerSecond: row.maxDeliveriesPerSecond,
    secretRotatedAt: row.secretRotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt:
      row.previousSigningSecretEnc && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now
        ? row.previousSecretExpiresAt.toISOString()
        : null,
    disabledAt: row.status === "INACTIVE" ? (row.disabledAt?.toISOString() ?? null) : null,
    disabledReason: row.status === "INACTIVE" && row.disabledAt ? row.inactiveReason : null,
    health: toPublicHealth(row, now),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toPublicHealth(row: WebhookDestination, now: Date): WebhookPublic["health"] {
  const rampEnds = row.breakerClosedAt ? new Date(row.breakerClosedAt.getTime() + BREAKER.recoveryRampMs) : null;
  return {
    breakerState: row.breakerState,
    consecutiveFailures: row.consecutiveFailures,
    failingSince: row.failingSince?.toISOString() ?? null,
    breakerOpenedAt: row.breakerOpenedAt?.toISOString() ?? null,
    nextProbeAt: row.breakerState === "OPEN" ? (row.nextProbeAt?.toISOString() ?? null) : null,
    recoveringUntil: rampEnds && rampEnds > now ? rampEnds.toISOString() : null,
    thresholds: publicThresholds(),
  };
}

export type DeliveryRow = WebhookDelivery & { event: { id: string; type: string }; log: WebhookAttempt[] };

export function toPublicDelivery(row: DeliveryRow): DeliveryPublic {
  return {
    deliveryId: row.id,
    eventId: row.event.id,
    eventType: row.event.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "PENDING" ? row.nextAttemptAt.toISOString() : null,
    lastStatusCode: row.lastStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    attemptLog: row.log.map((a) => ({
      attempt: a.attempt,
      startedAt: a.startedAt.toISOString(),
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      error: a.error,
      responseExcerpt: a.responseExcerpt,
    })),
  };
}

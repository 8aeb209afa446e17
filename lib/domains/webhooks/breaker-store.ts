// The circuit breaker's SQL (docs/event-pipeline.md "Endpoint health"). The breaker lives
// on the WebhookDestination row; every change runs under that row's lock (FOR UPDATE), so
// workers sharing a destination see one breaker and never let two probes through. The
// transitions themselves are pure (breaker.ts); every function takes `now`.

import { db, hotPrepared, type Tx } from "@/lib/db";
import { ts } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { type Admission, type AttemptResult, admit, afterAttempts, BREAKER, disabledReason } from "./breaker";
import { emitDeliveryExhausted, emitEndpointDisabled } from "./operational-events";

const HEALTH = {
  breakerState: true,
  consecutiveFailures: true,
  failingSince: true,
  breakerOpenedAt: true,
  breakerOpenCount: true,
  nextProbeAt: true,
  probeDeliveryId: true,
  probeUntil: true,
  breakerClosedAt: true,
} as const;

async function lockDestination(tx: Tx, id: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT id FROM "WebhookDestination" WHERE id = $1 FOR UPDATE`, id);
}

/**
 * Asks the destination's breaker whether a claimed delivery may go out now (only needed when
 * the claim saw the breaker not CLOSED). A "probe" admission is written before it returns.
 */
export async function admitDelivery(
  job: { id: string; destinationId: string; timeoutMs: number },
  now: Date,
): Promise<Admission> {
  return db.$transaction(async (tx) => {
    await lockDestination(tx, job.destinationId);
    const health = await tx.webhookDestination.findUnique({ where: { id: job.destinationId }, select: HEALTH });
    if (!health) return { decision: "send" } as const;
    const admission = admit(health, job.id, now, job.timeoutMs + BREAKER.probeLeaseMarginMs);
    if (admission.decision === "probe") {
      await tx.$executeRawUnsafe(
        `UPDATE "WebhookDestination" SET "breakerState" = 'HALF_OPEN', "probeDeliveryId" = $2, "probeUntil" = $3::timestamp(3)
         WHERE id = $1`,
        job.destinationId,
        job.id,
        ts(admission.patch.probeUntil),
      );
    }
    return admission;
  });
}

/** A claimed delivery the breaker holds back: released unsent (no attempt counted) until `until`. */
export async function holdDelivery(id: string, lease: string, until: Date): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "WebhookDelivery" SET "lockedUntil" = NULL, "nextAttemptAt" = $3::timestamp(3)
     WHERE id = $1 AND "lockedUntil" = $2::timestamp(3)`,
    id,
    lease,
    ts(until),
  );
}

/** Holds every waiting (unclaimed) PENDING delivery of the destination until `until`. */
async function holdPending(tx: Tx, destinationId: string, until: Date, now: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE "WebhookDelivery" SET "nextAttemptAt" = $2::timestamp(3)
     WHERE "destinationId" = $1 AND status = 'PENDING' AND "nextAttemptAt" < $2::timestamp(3)
       AND ("lockedUntil" IS NULL OR "lockedUntil" < $3::timestamp(3))`,
    destinationId,
    ts(until),
    ts(now),
  );
}

/** The breaker closed: the destination's waiting deliveries are due now (paced by deliveryCap). */
async function releasePending(tx: Tx, destinationIds: string[], now: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE "WebhookDelivery" SET "nextAttemptAt" = $2::timestamp(3)
     WHERE "destinationId" = ANY($1::text[]) AND status = 'PENDING' AND "nextAttemptAt" > $2::timestamp(3)
       AND ("lockedUntil" IS NULL OR "lockedUntil" < $2::timestamp(3))`,
    destinationIds,
    ts(now),
  );
}

export type HealthOutcome = AttemptResult & {
  destinationId: string;
  /** The delivery's state after the attempt: FAILED means it gave up (webhook.delivery.exhausted). */
  status: "SUCCEEDED" | "FAILED" | "PENDING";
};

/**
 * Destinations whose attempts all succeeded: one statement (the hot path: it writes nothing
 * for a healthy destination) ends their streaks and closes the breakers that were not
 * closed; those closed now have their held deliveries released.
 */
async function recordSuccesses(destinationIds: string[], now: Date): Promise<void> {
  // After every batch of results: plain pg, prepared (hotPrepared), like the worker's other hot statements.
  const closed = await hotPrepared<{ id: string }>("webhook_successes", {
    text: `WITH changed AS (
       UPDATE "WebhookDestination" SET "consecutiveFailures" = 0, "failingSince" = NULL,
         "breakerState" = 'CLOSED', "breakerOpenedAt" = NULL, "breakerOpenCount" = 0, "nextProbeAt" = NULL,
         "probeDeliveryId" = NULL, "probeUntil" = NULL,
         "breakerClosedAt" = CASE WHEN "breakerState" <> 'CLOSED' THEN $2::timestamp(3) ELSE "breakerClosedAt" END
       WHERE id = ANY($1::text[])
         AND ("breakerState" <> 'CLOSED' OR "consecutiveFailures" > 0 OR "failingSince" IS NOT NULL)
       RETURNING id, "breakerClosedAt" = $2::timestamp(3) AS "closedNow")
     SELECT id FROM changed WHERE "closedNow"`,
    values: [destinationIds, ts(now)],
  });
  if (closed.length > 0)
    await releasePending(
      db,
      closed.map((r) => r.id),
      now,
    );
}

/** One destination with failures among its results: the transitions under its row lock. */
async function recordResults(destinationId: string, results: AttemptResult[], now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockDestination(tx, destinationId);
    const row = await tx.webhookDestination.findUnique({
      where: { id: destinationId },
      select: { ...HEALTH, status: true, updatedAt: true, customerId: true },
    });
    if (!row) return;
    const change = afterAttempts(row, results, now);
    const disable = change.disable && row.status === "ACTIVE" && change.health.failingSince !== null;
    const reason = change.health.failingSince ? disabledReason(change.health.failingSince) : null;
    await tx.webhookDestination.update({
      where: { id: destinationId },
      data: {
        ...change.health,
        ...(disable
          ? { status: "INACTIVE", inactiveReason: reason, disabledAt: now, updatedAt: now }
          : { updatedAt: row.updatedAt }),
      },
    });
    if (disable) {
      await tx.webhookDelivery.updateMany({
        where: { destinationId, status: "PENDING" },
        data: { status: "CANCELLED", lockedUntil: null, lastError: reason },
      });
      await emitEndpointDisabled(tx, destinationId, now);
      // The breaker disabled it: the system's change (docs/security.md "Audit log").
      await recordAudit(tx, {
        ...auditContext(systemPrincipal(row.customerId)),
        action: "webhook.disabled",
        target: { type: "webhook", uid: destinationId },
        details: { reason },
      });
    } else if (change.opened && change.health.nextProbeAt) {
      await holdPending(tx, destinationId, change.health.nextProbeAt, now);
    } else if (change.closed) {
      await releasePending(tx, [destinationId], now);
    }
  });
}

/**
 * Feeds finished attempts to their destinations' breakers (after their results are written),
 * then tells the customer about deliveries that gave up (webhook.delivery.exhausted).
 */
export async function recordHealth(outcomes: HealthOutcome[], now: Date): Promise<void> {
  const byDestination = new Map<string, AttemptResult[]>();
  for (const o of outcomes) {
    const list = byDestination.get(o.destinationId) ?? [];
    list.push({ deliveryId: o.deliveryId, ok: o.ok, at: o.at });
    byDestination.set(o.destinationId, list);
  }
  const clean: string[] = [];
  for (const [destinationId, results] of byDestination) {
    if (results.every((r) => r.ok)) clean.push(destinationId);
    else await recordResults(destinationId, results, now);
  }
  if (clean.length > 0) await recordSuccesses(clean, now);
  const gaveUp = outcomes.filter((o) => o.status === "FAILED").map((o) => o.deliveryId);
  if (gaveUp.length > 0) await emitDeliveryExhausted(gaveUp, now);
}

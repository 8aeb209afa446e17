// Endpoint health: the circuit breaker of a webhook destination, as pure state transitions
// (docs/event-pipeline.md "Endpoint health"). breaker-store.ts applies them under a row
// lock on the destination, so several workers share one breaker; every function takes
// `now`, so tests drive it with a fake clock.
import type { BreakerState } from "@/lib/generated/prisma/client";

/** The thresholds, documented in docs/event-pipeline.md and served on every webhook (`health.thresholds`). */
export const BREAKER = {
  /** Consecutive failed attempts that open the breaker. */
  failuresToOpen: 5,
  /** Wait before the first probe; doubles each time a probe fails ... */
  probeBackoffBaseMs: 30_000,
  /** ... up to this. */
  probeBackoffMaxMs: 60 * 60_000,
  /** A probe holds the half-open breaker for its timeout plus this (a probe cut short by a killed worker frees it). */
  probeLeaseMarginMs: 10_000,
  /** Nothing but failures for this long (no success since the streak's first failure) disables the destination. */
  disableAfterMs: 5 * 24 * 60 * 60_000,
  /** After the breaker closes, deliveries start at this many per second ... */
  recoveryStartPerSecond: 1,
  /** ... doubling every step ... */
  recoveryStepMs: 10_000,
  /** ... until the ramp ends (then only maxDeliveriesPerSecond, if set, applies). */
  recoveryRampMs: 60_000,
} as const;

export type Health = {
  breakerState: BreakerState;
  consecutiveFailures: number;
  failingSince: Date | null;
  breakerOpenedAt: Date | null;
  breakerOpenCount: number;
  nextProbeAt: Date | null;
  probeDeliveryId: string | null;
  probeUntil: Date | null;
  breakerClosedAt: Date | null;
};

/** The wait before the probe after the breaker opened for the `openCount`-th time in an outage. */
export function probeBackoffMs(openCount: number): number {
  return Math.min(BREAKER.probeBackoffMaxMs, BREAKER.probeBackoffBaseMs * 2 ** Math.max(0, openCount - 1));
}

const after = (now: Date, ms: number) => new Date(now.getTime() + ms);

export type Admission =
  | { decision: "send" }
  | { decision: "probe"; patch: Partial<Health> }
  | { decision: "wait"; until: Date };

/**
 * May this claimed delivery be attempted now? CLOSED: yes. OPEN: it waits for nextProbeAt;
 * from then the first one to ask becomes the probe (HALF_OPEN). HALF_OPEN: every delivery
 * waits while the probe's lease lasts, the probe's own too; a probe whose lease ran out is
 * replaced. The probe's own delivery waits because its failure is written to the delivery
 * (PENDING, retry due within the backoff) before the breaker hears of it: claimed again in
 * that gap it would go out as a second probe (the flood the breaker exists to prevent). A
 * probe not sent (rate cap, lease lost) is therefore retried only after its lease, a delay
 * of at most its timeout + 10 s on an endpoint already waiting 30 s or more between probes.
 */
export function admit(h: Health, deliveryId: string, now: Date, probeLeaseMs: number): Admission {
  if (h.breakerState === "CLOSED") return { decision: "send" };
  const takeProbe = (): Admission => ({
    decision: "probe",
    patch: { breakerState: "HALF_OPEN", probeDeliveryId: deliveryId, probeUntil: after(now, probeLeaseMs) },
  });
  if (h.breakerState === "OPEN") {
    if (h.nextProbeAt && h.nextProbeAt > now) return { decision: "wait", until: h.nextProbeAt };
    return takeProbe();
  }
  if (!h.probeUntil || h.probeUntil <= now) return takeProbe();
  return { decision: "wait", until: h.probeUntil };
}

export type AttemptResult = { deliveryId: string; ok: boolean; at: Date };

export type HealthChange = {
  health: Health;
  /** The breaker went OPEN (hold the destination's pending deliveries until nextProbeAt). */
  opened: boolean;
  /** The breaker went CLOSED from OPEN or HALF_OPEN (release the held deliveries). */
  closed: boolean;
  /** Failing for disableAfterMs with no success: the destination goes INACTIVE. */
  disable: boolean;
};

/**
 * Applies attempt results, in the order they finished. A success closes the breaker and
 * ends the failure streak; a failure counts, opens a CLOSED breaker at failuresToOpen,
 * and re-opens a HALF_OPEN one (the probe failed) with the next, longer backoff.
 */
export function afterAttempts(start: Health, results: AttemptResult[], now: Date): HealthChange {
  const h: Health = { ...start };
  let opened = false;
  let closed = false;
  const open = (count: number) => {
    h.breakerState = "OPEN";
    h.breakerOpenCount = count;
    h.breakerOpenedAt = now;
    h.nextProbeAt = after(now, probeBackoffMs(count));
    h.probeDeliveryId = null;
    h.probeUntil = null;
    opened = true;
    closed = false;
  };
  for (const r of results) {
    if (r.ok) {
      if (h.breakerState !== "CLOSED") {
        closed = true;
        opened = false;
        h.breakerClosedAt = now;
      }
      Object.assign(h, {
        breakerState: "CLOSED",
        consecutiveFailures: 0,
        failingSince: null,
        breakerOpenedAt: null,
        breakerOpenCount: 0,
        nextProbeAt: null,
        probeDeliveryId: null,
        probeUntil: null,
      } satisfies Partial<Health>);
      continue;
    }
    h.consecutiveFailures += 1;
    h.failingSince ??= r.at;
    if (h.breakerState === "HALF_OPEN" && h.probeDeliveryId === r.deliveryId) open(h.breakerOpenCount + 1);
    else if (h.breakerState === "CLOSED" && h.consecutiveFailures >= BREAKER.failuresToOpen) open(1);
  }
  const disable = h.failingSince !== null && now.getTime() - h.failingSince.getTime() >= BREAKER.disableAfterMs;
  return { health: h, opened, closed, disable };
}

/** What re-enabling a destination (status ACTIVE) writes: a closed breaker, no streak, ramped restart. */
export function resetHealth(now: Date): Health & { disabledAt: null } {
  return {
    breakerState: "CLOSED",
    consecutiveFailures: 0,
    failingSince: null,
    breakerOpenedAt: null,
    breakerOpenCount: 0,
    nextProbeAt: null,
    probeDeliveryId: null,
    probeUntil: null,
    breakerClosedAt: now,
    disabledAt: null,
  };
}

/**
 * Deliveries per second the destination may take now: its own cap (maxDeliveriesPerSecond)
 * and, for recoveryRampMs after the breaker closed, the ramp (1, 2, 4, ... per second), so a
 * recovered endpoint is not flooded by its backlog. null: no cap.
 */
export function deliveryCap(maxPerSecond: number | null, closedAt: Date | null, now: Date): number | null {
  const since = closedAt ? now.getTime() - closedAt.getTime() : Number.POSITIVE_INFINITY;
  if (since < 0 || since >= BREAKER.recoveryRampMs) return maxPerSecond;
  const ramp = BREAKER.recoveryStartPerSecond * 2 ** Math.floor(since / BREAKER.recoveryStepMs);
  return maxPerSecond === null ? ramp : Math.min(maxPerSecond, ramp);
}

/** The reason written on a destination disabled by its failure streak. */
export function disabledReason(failingSince: Date): string {
  return `Disabled automatically: every delivery attempt failed since ${failingSince.toISOString()} (5 days without a success)`;
}

/** The thresholds as the API shows them (seconds). */
export function publicThresholds() {
  return {
    failuresToOpen: BREAKER.failuresToOpen,
    probeBackoffMinSeconds: BREAKER.probeBackoffBaseMs / 1000,
    probeBackoffMaxSeconds: BREAKER.probeBackoffMaxMs / 1000,
    disableAfterSeconds: BREAKER.disableAfterMs / 1000,
    recoveryRampSeconds: BREAKER.recoveryRampMs / 1000,
  };
}

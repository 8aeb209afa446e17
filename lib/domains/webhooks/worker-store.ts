// The delivery queue's SQL: claiming due deliveries under a lease, and writing attempt
// results in bulk (one statement for many: the attempt rows and the deliveries' next
// state, each fenced by the lease it was claimed with). The statements every delivery
// passes through (claim, start, outcome, rate slot) run on plain pg (`hotRows`), not the
// ORM: its per-statement CPU was a large share of a delivery's (docs/event-pipeline.md).

import { db, hotPrepared, hotRows } from "@/lib/db";
import { NOW_UTC, newIds } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { systemPrincipal } from "@/lib/domains/auth/principal";

const run = <T>(text: string, values: unknown[]) => hotRows<T>({ text, values });
/** The statements run for every batch: prepared once per connection (hotPrepared). */
const runPrepared = <T>(name: string, text: string, values: unknown[]) => hotPrepared<T>(name, { text, values });

export type Claimed = {
  id: string;
  eventId: string;
  attempts: number;
  lease: string;
  destinationId: string;
  destinationStatus: string;
  endpointUrl: string;
  timeoutMs: number;
  retryEnabled: boolean;
  retryMaxAttempts: number;
  verificationHeaderKey: string | null;
  verificationTokenEnc: string | null;
  signingSecretEnc: string;
  /** The secret before the last rotation while its grace lasts (null otherwise): it signs too. */
  previousSigningSecretEnc: string | null;
  /** The destination's throughput cap (null: none). */
  maxDeliveriesPerSecond: number | null;
  /** The destination's circuit breaker at claim time (docs/event-pipeline.md "Endpoint health"). */
  breakerState: "CLOSED" | "OPEN" | "HALF_OPEN";
  /** When the breaker last closed, epoch ms (null: never): deliveries ramp up after it. */
  breakerClosedAtMs: number | null;
  /** The event's payload as sent (null if the event is gone). */
  body: string | null;
};

/** Claims up to `limit` due PENDING deliveries (SKIP LOCKED: workers never share one). */
export async function claimDue(limit: number, leaseMarginMs: number, customerIds: string[] | null): Promise<Claimed[]> {
  const scope = customerIds
    ? `AND "destinationId" IN (SELECT id FROM "WebhookDestination" WHERE "customerId" = ANY($3::text[]))`
    : "";
  return runPrepared<Claimed>(
    customerIds ? "webhook_claim_scoped" : "webhook_claim",
    `WITH due AS MATERIALIZED (
       SELECT id FROM "WebhookDelivery"
       WHERE status = 'PENDING' AND "nextAttemptAt" <= ${NOW_UTC}
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "nextAttemptAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "WebhookDelivery" AS w
     SET "lockedUntil" = ${NOW_UTC} + ((d."timeoutMs" + $2) * interval '1 millisecond'), "updatedAt" = ${NOW_UTC}
     FROM due, "WebhookDestination" AS d
     WHERE w.id = due.id AND d.id = w."destinationId"
     RETURNING w.id, w."eventId", w.attempts, w."lockedUntil"::text AS lease, d.id AS "destinationId",
       d.status::text AS "destinationStatus", d."endpointUrl", d."timeoutMs", d."retryEnabled", d."retryMaxAttempts",
       d."verificationHeaderKey", d."verificationTokenEnc", d."signingSecretEnc",
       d."maxDeliveriesPerSecond", d."breakerState"::text AS "breakerState",
       (EXTRACT(EPOCH FROM d."breakerClosedAt") * 1000)::float8 AS "breakerClosedAtMs",
       CASE WHEN d."previousSecretExpiresAt" > ${NOW_UTC} THEN d."previousSigningSecretEnc" END AS "previousSigningSecretEnc",
       (SELECT e.payload::text FROM "WebhookEvent" AS e WHERE e.id = w."eventId") AS body`,
    customerIds ? [limit, leaseMarginMs, customerIds] : [limit, leaseMarginMs],
  );
}

/** Milliseconds until the earliest PENDING delivery can be claimed (null: none waiting). */
export async function nextDueInMs(customerIds: string[] | null): Promise<number | null> {
  const scope = customerIds
    ? `AND "destinationId" IN (SELECT id FROM "WebhookDestination" WHERE "customerId" = ANY($1::text[]))`
    : "";
  const rows = await db.$queryRawUnsafe<{ ms: number | null }[]>(
    `SELECT (EXTRACT(EPOCH FROM (min(GREATEST("nextAttemptAt", COALESCE("lockedUntil", "nextAttemptAt"))) - ${NOW_UTC})) * 1000)::float8 AS ms
     FROM "WebhookDelivery" WHERE status = 'PENDING' ${scope}`,
    ...(customerIds ? [customerIds] : []),
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.ceil(ms);
}

/**
 * Counts an attempt as started, before its request goes out, so an attempt cut short by a
 * killed worker is still counted. Fenced by the claim's lease, which must still cover
 * `needMs` (the request's timeout and the result's write): returns the ids this worker may
 * send (the others are left for a later claim and must not be sent from here).
 */
export async function markStarted(jobs: { id: string; lease: string; needMs: number }[]): Promise<Set<string>> {
  if (jobs.length === 0) return new Set();
  const rows = await runPrepared<{ id: string }>(
    "webhook_start",
    `UPDATE "WebhookDelivery" AS w SET attempts = w.attempts + 1, "updatedAt" = ${NOW_UTC}
     FROM unnest($1::text[], $2::text[], $3::int4[]) AS s(id, lease, need)
     WHERE w.id = s.id AND w."lockedUntil" = s.lease::timestamp(3)
       AND w."lockedUntil" > ${NOW_UTC} + (s.need * interval '1 millisecond')
     RETURNING w.id`,
    [jobs.map((j) => j.id), jobs.map((j) => j.lease), jobs.map((j) => j.needMs)],
  );
  return new Set(rows.map((r) => r.id));
}

export type Outcome = {
  deliveryId: string;
  /** The delivery's destination (its breaker counts the result: breaker-store.ts). */
  destinationId: string;
  lease: string;
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** SUCCEEDED, FAILED, or PENDING (a retry after delayMs). */
  status: "SUCCEEDED" | "FAILED" | "PENDING";
  delayMs: number;
};

/** Writes many attempt results at once. */
export async function recordOutcomes(outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const col = <T>(f: (o: Outcome) => T) => outcomes.map(f);
  await runPrepared(
    "webhook_outcomes",
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int4[], $5::text[], $6::int4[], $7::int4[], $8::text[], $9::text[], $10::text[], $11::int4[])
         AS t(aid, did, lease, attempt, started, code, latency, error, excerpt, status, delay)
     ), a AS (
       INSERT INTO "WebhookAttempt" (id, "deliveryId", attempt, "startedAt", "statusCode", "latencyMs", error, "responseExcerpt")
       SELECT aid, did, attempt, started::timestamp(3), code, latency, error, excerpt FROM input
     )
     UPDATE "WebhookDelivery" AS w SET status = i.status::"DeliveryStatus", attempts = i.attempt, "lastStatus" = i.code,
       "lastError" = i.error, "nextAttemptAt" = ${NOW_UTC} + (i.delay * interval '1 millisecond'), "lockedUntil" = NULL,
       "updatedAt" = ${NOW_UTC}
     FROM input AS i WHERE w.id = i.did AND w."lockedUntil" = i.lease::timestamp(3)`,
    [
      newIds("att_", outcomes.length),
      col((o) => o.deliveryId),
      col((o) => o.lease),
      col((o) => o.attempt),
      col((o) => o.startedAt.toISOString()),
      col((o) => o.statusCode),
      col((o) => o.latencyMs),
      col((o) => o.error),
      col((o) => o.responseExcerpt),
      col((o) => o.status),
      col((o) => o.delayMs),
    ],
  );
}

/** 410 Gone: the destination goes INACTIVE with the reason, and its pending deliveries are cancelled. */
export async function deactivateDestination(destinationId: string, reason: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const destination = await tx.webhookDestination.findUnique({
      where: { id: destinationId },
      select: { customerId: true, status: true },
    });
    if (!destination) return;
    await tx.webhookDestination.updateMany({
      where: { id: destinationId },
      data: { status: "INACTIVE", inactiveReason: reason, disabledAt: new Date() },
    });
    await tx.webhookDelivery.updateMany({
      where: { destinationId, status: "PENDING" },
      data: { status: "CANCELLED", lockedUntil: null, lastError: reason },
    });
    // The endpoint answered 410 Gone: the system's change (docs/security.md "Audit log").
    if (destination.status === "ACTIVE") {
      await recordAudit(tx, {
        ...auditContext(systemPrincipal(destination.customerId)),
        action: "webhook.disabled",
        target: { type: "webhook", uid: destinationId },
        details: { reason },
      });
    }
  });
}

export async function cancelDelivery(id: string): Promise<void> {
  await db.webhookDelivery.updateMany({
    where: { id, status: "PENDING" },
    data: { status: "CANCELLED", lockedUntil: null, lastError: "Destination is INACTIVE" },
  });
}

/** Drops every previous signing secret whose grace has ended (docs/event-pipeline.md "Secret rotation"). */
export async function dropExpiredPreviousSecrets(now: Date = new Date()): Promise<number> {
  const { count } = await db.webhookDestination.updateMany({
    where: { previousSecretExpiresAt: { lte: now } },
    data: { previousSigningSecretEnc: null, previousSecretExpiresAt: null },
  });
  return count;
}

/**
 * Takes one of the destination's `cap` slots of the current second, atomically across
 * workers (one row per destination and second): true when this delivery may start now.
 */
export async function takeRateSlot(destinationId: string, cap: number): Promise<boolean> {
  const rows = await run<{ count: number }>(
    `INSERT INTO "WebhookRateSlot" ("destinationId", second, count)
     VALUES ($1, floor(extract(epoch from clock_timestamp()))::bigint, 1)
     ON CONFLICT ("destinationId", second) DO UPDATE SET count = "WebhookRateSlot".count + 1
       WHERE "WebhookRateSlot".count < $2
     RETURNING count`,
    [destinationId, cap],
  );
  return rows.length > 0;
}

/** A capped delivery over its second's budget: released unsent (no attempt counted) until the next second. */
export async function deferToNextSecond(id: string, lease: string): Promise<void> {
  await run(
    `UPDATE "WebhookDelivery" SET "lockedUntil" = NULL, "updatedAt" = ${NOW_UTC},
       "nextAttemptAt" = date_trunc('second', ${NOW_UTC}) + interval '1 second'
     WHERE id = $1 AND "lockedUntil" = $2::timestamp(3)`,
    [id, lease],
  );
}

/** Forgets rate slots older than a minute. */
export async function dropOldRateSlots(): Promise<void> {
  await db.$executeRawUnsafe(
    `DELETE FROM "WebhookRateSlot" WHERE second < floor(extract(epoch from clock_timestamp()))::bigint - 60`,
  );
}

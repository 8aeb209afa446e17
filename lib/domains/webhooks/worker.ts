// The durable delivery queue's worker. Claims due PENDING deliveries with a lease (see
// worker-store.ts), so several workers never hold the same delivery; a lease that
// expires (worker killed) makes it claimable again: at-least-once, with the same
// webhook-id (the delivery id). Up to `concurrency` requests in flight; an attempt is
// counted in `attempts` before its request goes out (so one cut short by a kill counts),
// and every finished attempt writes a WebhookAttempt row (results are written in small
// bulk batches, starts too).

import { parseRetryAfter, retryDelayMs } from "@/lib/core/backoff";
import { decryptSecret } from "@/lib/core/crypto/secret-box";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { IDLE, MORE, type PassResult, startWorker, type WorkerDefinition } from "@/lib/core/worker-loop";
import { wakeupsOn } from "@/lib/db/wakeups";
import { onDeliveriesQueued } from "@/lib/domains/events/signal";
import { deliveryCap } from "./breaker";
import { admitDelivery, holdDelivery, recordHealth } from "./breaker-store";
import { closeSendAgent, type SendResult, sendWebhook } from "./send";
import { signingKey, signWith } from "./signing";
import { assertDeliverableUrl } from "./url-guard";
import {
  type Claimed,
  cancelDelivery,
  claimDue,
  deactivateDestination,
  deferToNextSecond,
  dropExpiredPreviousSecrets,
  dropOldRateSlots,
  markStarted,
  nextDueInMs,
  type Outcome,
  recordOutcomes,
  takeRateSlot,
} from "./worker-store";

export const USER_AGENT = "Switchboard-Webhooks/1.0";

export type DeliveryWorkerOptions = {
  concurrency?: number;
  pollMs?: number;
  /** Base of the exponential backoff (production ~1 s; tests ~50 ms). */
  retryBaseMs?: number;
  retryMaxDelayMs?: number;
  /** Added to the destination's timeoutMs to form the claim lease. */
  leaseMarginMs?: number;
  /** Jitter source in [0, 1] (full jitter); tests may pin it. */
  random?: () => number;
  /** Only deliveries of these customers' destinations (a dedicated worker; isolated tests). */
  customerIds?: string[] | null;
  /** The endpoint-health clock (breaker.ts); tests may pin it. */
  clock?: () => Date;
};
type Settings = Required<DeliveryWorkerOptions>;

// Decrypted once per stored (encrypted) value: signing keys and verification tokens.
const keys = new Map<string, Buffer>();
function keyFor(enc: string): Buffer {
  let key = keys.get(enc);
  if (!key) {
    key = signingKey(decryptSecret(enc));
    if (keys.size > 1000) keys.clear();
    keys.set(enc, key);
  }
  return key;
}
const tokens = new Map<string, string>();
function tokenFor(enc: string): string {
  let token = tokens.get(enc);
  if (token === undefined) {
    token = decryptSecret(enc);
    if (tokens.size > 1000) tokens.clear();
    tokens.set(enc, token);
  }
  return token;
}

// The URL rules are re-checked at delivery time (cached briefly); guardedLookup in
// send.ts re-checks every DNS answer at connect time.
const checkedUrls = new Map<string, number>();
async function checkUrl(url: string): Promise<void> {
  const until = checkedUrls.get(url);
  if (until && until > Date.now()) return;
  await assertDeliverableUrl(url);
  if (checkedUrls.size > 5000) checkedUrls.clear();
  checkedUrls.set(url, Date.now() + 60_000);
}

/**
 * The `webhook-signature` value: `v1,<sig>` with the current secret and, during a rotation's
 * grace, a second space-separated `v1,<sig>` with the previous one (Standard Webhooks lets a
 * receiver accept any listed signature), so receivers switch secrets without a missed event.
 */
export function signatures(
  job: Pick<Claimed, "id" | "signingSecretEnc" | "previousSigningSecretEnc">,
  now: Date,
  body: string,
): string {
  const current = signWith(keyFor(job.signingSecretEnc), job.id, now, body);
  if (!job.previousSigningSecretEnc) return current;
  return `${current} ${signWith(keyFor(job.previousSigningSecretEnc), job.id, now, body)}`;
}

function buildHeaders(job: Claimed, body: string): Record<string, string> {
  const now = new Date();
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": job.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signatures(job, now, body),
  };
  if (job.verificationHeaderKey && job.verificationTokenEnc) {
    headers[job.verificationHeaderKey.toLowerCase()] = tokenFor(job.verificationTokenEnc);
  }
  return headers;
}

async function attempt(job: Claimed): Promise<SendResult> {
  const body = job.body;
  if (body === null)
    return { statusCode: null, latencyMs: 0, error: "Event not found", responseExcerpt: null, retryAfter: null };
  try {
    await checkUrl(job.endpointUrl);
    return await sendWebhook(job.endpointUrl, buildHeaders(job, body), body, job.timeoutMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { statusCode: null, latencyMs: 0, error: message.slice(0, 500), responseExcerpt: null, retryAfter: null };
  }
}

/** What an attempt's result means for the delivery: done, failed for good, or retry later. */
export function nextStep(job: Claimed, r: SendResult, s: Pick<Settings, "retryBaseMs" | "retryMaxDelayMs" | "random">) {
  const n = job.attempts + 1;
  if (r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300)
    return { status: "SUCCEEDED" as const, delayMs: 0 };
  if (r.statusCode === 410 || !job.retryEnabled || n > job.retryMaxAttempts)
    return { status: "FAILED" as const, delayMs: 0 };
  let delayMs = retryDelayMs(n, s.retryBaseMs, s.retryMaxDelayMs, s.random);
  if (r.statusCode === 429) delayMs = Math.max(delayMs, parseRetryAfter(r.retryAfter) ?? 0);
  return { status: "PENDING" as const, delayMs };
}

const toHealthOutcome = (o: Outcome) => ({
  deliveryId: o.deliveryId,
  destinationId: o.destinationId,
  ok: o.status === "SUCCEEDED",
  at: o.startedAt,
  status: o.status,
});

/** How long an idle worker on a slow poll sleeps: until the next delivery falls due, at most `pollMs`. */
async function idleMs(pollMs: number, customerIds: string[] | null): Promise<number> {
  try {
    const due = await nextDueInMs(customerIds);
    return due === null ? pollMs : Math.min(pollMs, Math.max(5, due));
  } catch (error) {
    log.error({ err: error }, "delivery worker error");
    return pollMs;
  }
}

/** Starts the worker loop; stop() lets in-flight attempts finish and records them. */
export function startDeliveryWorker(options: DeliveryWorkerOptions = {}): { stop: () => Promise<void> } {
  return startWorker(deliveryWorker(options));
}

/**
 * The delivery worker as a definition for the worker loop (lib/background.ts): woken by
 * NOTIFY "deliveries" and by deliveries queued in this process (lib/domains/events/signal.ts).
 */
export function deliveryWorker(options: DeliveryWorkerOptions = {}): WorkerDefinition {
  const e = env();
  const s: Settings = {
    concurrency: options.concurrency ?? e.WORKER_CONCURRENCY,
    pollMs: options.pollMs ?? e.WORKER_POLL_MS,
    retryBaseMs: options.retryBaseMs ?? e.WEBHOOK_RETRY_BASE_MS,
    retryMaxDelayMs: options.retryMaxDelayMs ?? e.WEBHOOK_RETRY_MAX_DELAY_MS,
    leaseMarginMs: options.leaseMarginMs ?? e.WORKER_LEASE_MARGIN_MS,
    random: options.random ?? Math.random,
    customerIds: options.customerIds ?? null,
    clock: options.clock ?? (() => new Date()),
  };
  const inflight = new Set<Promise<void>>();
  const pending: Outcome[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let health: Promise<void> = Promise.resolve();

  // Results are written in bulk: at once when many are waiting, else within a few ms.
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = pending.splice(0, pending.length);
    if (batch.length === 0) return flushing;
    const written = flushing.then(() => recordOutcomes(batch));
    flushing = written.catch((error) =>
      log.error({ err: error, count: batch.length }, "failed to record delivery attempts"),
    );
    // The breakers learn of the results once they are written, on their own chain, so a
    // slow health write never delays the next results (breaker-store.ts).
    health = Promise.all([health, written])
      .then(() => recordHealth(batch.map(toHealthOutcome), s.clock()))
      .catch((error) => log.error({ err: error, count: batch.length }, "failed to record endpoint health"));
    return flushing;
  };
  const queueOutcome = (o: Outcome) => {
    pending.push(o);
    if (pending.length >= 64) void flush();
    else flushTimer ??= setTimeout(() => void flush(), 5);
  };

  // Starts are counted in bulk too: every job started in one tick shares one statement,
  // awaited before any of their requests goes out.
  let starting: { id: string; lease: string; needMs: number }[] = [];
  let started: Promise<Set<string>> | undefined;
  const markStart = (job: Claimed): Promise<Set<string>> => {
    starting.push({ id: job.id, lease: job.lease, needMs: job.timeoutMs + Math.floor(s.leaseMarginMs / 4) });
    started ??= new Promise<Set<string>>((resolve, reject) =>
      setImmediate(() => {
        const batch = starting;
        starting = [];
        started = undefined;
        markStarted(batch).then(resolve, reject);
      }),
    );
    return started;
  };

  const run = async (job: Claimed) => {
    if (job.destinationStatus !== "ACTIVE") return cancelDelivery(job.id);
    // An open breaker holds the delivery back unsent, freeing this worker (docs/event-pipeline.md "Endpoint health").
    if (job.breakerState !== "CLOSED") {
      const admission = await admitDelivery(job, s.clock());
      if (admission.decision === "wait") return holdDelivery(job.id, job.lease, admission.until);
    }
    // The destination's cap (maxDeliveriesPerSecond, and the ramp after its breaker closed) is counted in the
    // database, so it holds across workers.
    const closedAt = job.breakerClosedAtMs === null ? null : new Date(job.breakerClosedAtMs);
    const cap = deliveryCap(job.maxDeliveriesPerSecond, closedAt, s.clock());
    if (cap !== null && !(await takeRateSlot(job.destinationId, cap))) {
      return deferToNextSecond(job.id, job.lease);
    }
    // Lease lost or run down: not ours to send (claimed again once it expires).
    if (!(await markStart(job)).has(job.id)) return;
    const startedAt = new Date();
    const r = await attempt(job);
    const next = nextStep(job, r, s);
    queueOutcome({
      deliveryId: job.id,
      destinationId: job.destinationId,
      lease: job.lease,
      attempt: job.attempts + 1,
      startedAt,
      ...r,
      ...next,
    });
    if (r.statusCode === 410) {
      await flush();
      await deactivateDestination(job.destinationId, `Endpoint answered 410 Gone on ${startedAt.toISOString()}`);
    }
  };

  // Claims are prefetched (up to one more `concurrency` worth waiting locally) so sending
  // never waits for the claim query. A prefetched job whose lease is too short to cover
  // its timeout (plus half the margin) by the time a slot frees is dropped unsent: it is claimed again once the
  // lease expires, so no two workers ever hold the same attempt.
  const ready: { job: Claimed; leaseEnds: number }[] = [];
  let slotFreed: (() => void) | undefined;
  const nextSlot = () =>
    new Promise<void>((resolve) => {
      slotFreed = () => {
        slotFreed = undefined;
        resolve();
      };
    });
  const start = () => {
    while (inflight.size < s.concurrency && ready.length > 0) {
      const next = ready.shift();
      if (!next) break;
      if (next.leaseEnds - Date.now() < next.job.timeoutMs + s.leaseMarginMs / 2) continue;
      const { job } = next;
      const p: Promise<void> = run(job)
        .catch((error) => log.error({ err: error, deliveryId: job.id }, "delivery failed"))
        .finally(() => {
          inflight.delete(p);
          start();
          slotFreed?.();
        });
      inflight.add(p);
    }
  };
  const threshold = Math.max(1, Math.floor(s.concurrency / 4));
  // Previous signing secrets past their grace are dropped (the claim already ignores them).
  let nextSweep = 0;
  const sweep = async () => {
    if (Date.now() < nextSweep) return;
    nextSweep = Date.now() + 60_000;
    await dropExpiredPreviousSecrets().catch((error) => log.error({ err: error }, "failed to drop expired secrets"));
    await dropOldRateSlots().catch((error) => log.error({ err: error }, "failed to drop old rate slots"));
  };
  const pass = async (): Promise<PassResult> => {
    await sweep();
    let claimed = 0;
    const want = 2 * s.concurrency - inflight.size - ready.length;
    if (want >= threshold) {
      const claimedAt = Date.now();
      const jobs = await claimDue(want, s.leaseMarginMs, s.customerIds);
      claimed = jobs.length;
      for (const job of jobs) ready.push({ job, leaseEnds: claimedAt + job.timeoutMs + s.leaseMarginMs });
      start();
    }
    if (claimed > 0 && 2 * s.concurrency - inflight.size - ready.length >= threshold) return MORE;
    // Busy: until a slot frees or a wake-up. Idle: until NOTIFY, the next retry falls due, or the safety poll.
    if (inflight.size > 0) return { more: false, sleepMs: claimed === 0 ? s.pollMs : 1000, until: nextSlot() };
    if (claimed === 0 && s.pollMs > 1_000) return { more: false, sleepMs: await idleMs(s.pollMs, s.customerIds) };
    return IDLE;
  };

  return {
    name: "delivery worker",
    wakeOn: [wakeupsOn("deliveries"), onDeliveriesQueued],
    pollMs: s.pollMs,
    pass,
    drain: async () => {
      ready.length = 0; // unsent prefetched jobs: their leases expire and they are claimed again
      await Promise.allSettled(inflight);
      await flush();
      await flushing;
      await health;
      await closeSendAgent();
    },
  };
}

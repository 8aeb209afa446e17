// Accepting a provider callback: the signature on the raw body, full validation, then the
// raw body stored durably (ProviderCallback) with a NOTIFY that wakes the callback processor
// of any process (lib/db/wakeups.ts), at most one per short window per process; lib/ingest
// applies it later (docs/event-pipeline.md).
// No HTTP here: the endpoint (lib/http/provider-webhook.ts) reads the request and answers
// with answerStatus, and the simulator hands its signed bodies straight in.
import { log } from "@/lib/core/log";
import { hotRows } from "@/lib/db";
import { NOW_UTC, newIds } from "@/lib/db/sql";
import { notifyExpression } from "@/lib/db/wakeups";
import { cleanCallbackBody } from "./clean";
import { parseProviderBody } from "./schemas";
import { verifyProviderSignature } from "./signature";

/** stored: durable, answered 200; unsigned: a missing or wrong signature; malformed: not the provider's envelope. */
export type CallbackOutcome = "stored" | "unsigned" | "malformed";

/** What the provider's endpoint answers for each outcome (the provider retries anything but a 2xx). */
export const answerStatus = { stored: 200, unsigned: 401, malformed: 400 } as const satisfies Record<
  CallbackOutcome,
  number
>;

/** Checks and stores one callback; nothing is stored unless it is signed and well formed. */
export async function acceptProviderCallback(raw: Buffer | string, signature: string | null): Promise<CallbackOutcome> {
  if (!verifyProviderSignature(raw, signature)) return "unsigned";
  // NUL and lone surrogates become U+FFFD: stored and applied, never failing (clean.ts).
  const body = cleanCallbackBody(typeof raw === "string" ? raw : raw.toString("utf8"));
  try {
    parseProviderBody(body);
  } catch {
    return "malformed";
  }
  await store(body);
  return "stored";
}

// Group commit (docs/event-pipeline.md "Provider callbacks (`GET|POST /api/provider/webhook`)"): the callbacks that arrive while a write is in
// flight are stored together, one multi-row INSERT instead of one each (and at most one NOTIFY
// per window, below), so a burst of provider POSTs is a few statements, not one per POST. Each
// POST is still answered only once its own row has committed; a lone POST is written at once.
type Waiting = { body: string; resolve: () => void; reject: (error: unknown) => void };
const waiting: Waiting[] = [];
/** Statements in flight at once (each takes everything that waited for it). */
const WRITERS = 2;
/** Rows per statement at most (a burst beyond it takes more statements). */
const MAX_ROWS = 500;
let writing = 0;
/** The writers running or about to (flushCallbackWakeup waits for them). */
const writers = new Set<Promise<void>>();

function store(body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({ body, resolve, reject });
    // After this turn of the event loop: the POSTs read in the same turn go together.
    if (writing < WRITERS) {
      writing += 1;
      const writer = new Promise<void>((next) => setImmediate(next)).then(writeWaiting);
      writers.add(writer);
      void writer.finally(() => writers.delete(writer));
    }
  });
}

async function writeWaiting(): Promise<void> {
  try {
    for (let batch = waiting.splice(0, MAX_ROWS); batch.length > 0; batch = waiting.splice(0, MAX_ROWS)) {
      try {
        await insertAndWake(batch.map((w) => w.body));
        for (const w of batch) w.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]?.reject(error);
        // One statement failed for all: each again alone, so one row's failure is its POST's only.
        else
          await Promise.all(
            batch.map((w) =>
              insertAndWake([w.body]).then(w.resolve, (e: unknown) => {
                w.reject(e);
              }),
            ),
          );
      }
    }
  } finally {
    writing -= 1;
  }
}

// One NOTIFY per window (docs/event-pipeline.md "Provider callbacks (`GET|POST /api/provider/webhook`)"):
// each NOTIFY wakes every listening processor for a pass of its own, and commits that notify
// queue behind one another on PostgreSQL's notify lock, so at the provider's rates one per
// POST (or per statement) made small batches and serialized commits. The first statement of
// a quiet stretch notifies at once in its own commit (no added latency); statements in the
// window after it store without one, and once the first of them has committed a trailing
// NOTIFY goes out at the window's end. That one is sent after their commits, so a processor
// whose pass claimed before they committed is woken again: nothing waits for the safety poll.
/** The window (ms): one NOTIFY per window per process at most (leading or trailing). Tests widen it. */
export const notifyWindow = { ms: 5 };
let lastNotifyAt = Number.NEGATIVE_INFINITY;
let trailing: NodeJS.Timeout | undefined;

/** True when this statement carries the window's NOTIFY (none sent in the window, none due). */
function takeNotify(): boolean {
  const now = performance.now();
  if (trailing || now - lastNotifyAt < notifyWindow.ms) return false;
  lastNotifyAt = now;
  return true;
}

/** After a commit that carried no NOTIFY: one at the window's end (one timer for all of them). */
function notifyLater(): void {
  if (trailing) return;
  const wait = Math.max(0, lastNotifyAt + notifyWindow.ms - performance.now());
  trailing = setTimeout(() => void sendTrailing(), wait);
}

/** The trailing NOTIFY, now. Lost only with the database: the processors' safety poll finds the rows then. */
async function sendTrailing(): Promise<void> {
  clearTimeout(trailing);
  trailing = undefined;
  lastNotifyAt = performance.now();
  await hotRows({ text: `SELECT ${notifyExpression("callbacks")}`, values: [] }).catch((error: unknown) => {
    log.warn({ err: error }, "callback wake-up failed; the processors' poll will find the callbacks");
  });
}

/**
 * Before a process closes its database (every shutdown path: scripts/supervisor.ts,
 * worker.ts, serve-api.ts): the stores in flight finish and a trailing NOTIFY still due is
 * sent at once, not at the window's end on a closed pool, so the callbacks of the last window
 * wake a processor instead of waiting for the safety poll (docs/event-pipeline.md).
 */
export async function flushCallbackWakeup(): Promise<void> {
  while (writers.size > 0) await Promise.allSettled([...writers]);
  if (trailing) await sendTrailing();
}

async function insertAndWake(bodies: string[]): Promise<void> {
  const notify = takeNotify();
  await insertCallbacks(bodies, notify);
  if (!notify) notifyLater();
}

/** The callbacks stored in one statement; with `notify`, its NOTIFY commits with the rows (lib/db/wakeups.ts). */
async function insertCallbacks(bodies: string[], notify: boolean): Promise<void> {
  const values = [newIds("cb", bodies.length), bodies];
  const insert = `INSERT INTO "ProviderCallback" ("id", "body", "receivedAt")
             SELECT id, body, ${NOW_UTC} FROM unnest($1::text[], $2::text[]) AS s(id, body)`;
  // The provider's whole traffic lands here: plain pg, not the ORM (see hotRows).
  await hotRows({
    text: notify
      ? `WITH stored AS (${insert} RETURNING 1)
           SELECT ${notifyExpression("callbacks")} FROM (SELECT 1 FROM stored LIMIT 1) AS one`
      : insert,
    values,
  });
}

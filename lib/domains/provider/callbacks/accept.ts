// Accepting a provider callback: the signature on the raw body, full validation, then the
// raw body stored durably (ProviderCallback) with a NOTIFY that wakes the callback processor
// of any process (lib/db/wakeups.ts); lib/ingest applies it later (docs/event-pipeline.md).
// No HTTP here: the endpoint (lib/http/provider-webhook.ts) reads the request and answers
// with answerStatus, and the simulator hands its signed bodies straight in.
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
// flight are stored together, one multi-row INSERT and one NOTIFY per statement instead of one
// each, so a burst of provider POSTs wakes the processor a few times, not once per POST. Each
// POST is still answered only once its own row has committed; a lone POST is written at once.
type Waiting = { body: string; resolve: () => void; reject: (error: unknown) => void };
const waiting: Waiting[] = [];
/** Statements in flight at once (each takes everything that waited for it). */
const WRITERS = 2;
/** Rows per statement at most (a burst beyond it takes more statements). */
const MAX_ROWS = 500;
let writing = 0;

function store(body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({ body, resolve, reject });
    // After this turn of the event loop: the POSTs read in the same turn go together.
    if (writing < WRITERS) {
      writing += 1;
      setImmediate(() => void writeWaiting());
    }
  });
}

async function writeWaiting(): Promise<void> {
  try {
    for (let batch = waiting.splice(0, MAX_ROWS); batch.length > 0; batch = waiting.splice(0, MAX_ROWS)) {
      try {
        await insertCallbacks(batch.map((w) => w.body));
        for (const w of batch) w.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]?.reject(error);
        // One statement failed for all: each again alone, so one row's failure is its POST's only.
        else
          await Promise.all(
            batch.map((w) =>
              insertCallbacks([w.body]).then(w.resolve, (e: unknown) => {
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

/** The callbacks stored in one statement, so its one NOTIFY commits with the rows (lib/db/wakeups.ts). */
async function insertCallbacks(bodies: string[]): Promise<void> {
  // The provider's whole traffic lands here: plain pg, not the ORM (see hotRows).
  await hotRows({
    text: `WITH stored AS (
             INSERT INTO "ProviderCallback" ("id", "body", "receivedAt")
             SELECT id, body, ${NOW_UTC} FROM unnest($1::text[], $2::text[]) AS s(id, body) RETURNING 1)
           SELECT ${notifyExpression("callbacks")} FROM (SELECT 1 FROM stored LIMIT 1) AS one`,
    values: [newIds("cb", bodies.length), bodies],
  });
}

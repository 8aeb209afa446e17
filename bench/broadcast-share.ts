// bench:broadcast (e): one customer's large start while another customer reads
// (docs/database.md "Connections", docs/broadcasts.md "States"). Through the lean API server
// (scripts/serve-api.ts) only, as clients would: the big customer creates a broadcast to one
// book and starts it, and fires 20 state changes at it at once (pause, resume, start,
// retry-failed: none may stall anyone), while another customer reads its broadcast list and
// the health check is asked, each 10 times a second. A worker (`npm run worker --customer`)
// makes the rest of the recipients. Baseline: the same reads with nothing else running, just
// before. Measured: the reads' p99 during the start, the start's time to SENDING, and that
// every contact became a recipient.
import type pg from "pg";
import { sleep } from "./harness";

export type ReadStats = { n: number; p50: number; p99: number; errors: number };
export type ShareRun = {
  contacts: number;
  recipients: number;
  startSeconds: number;
  completed: boolean;
  idle: { list: ReadStats; health: ReadStats };
  during: { list: ReadStats; health: ReadStats };
  changes: Record<string, number>;
  load: string;
};

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * q) - 1] ?? 0;
const stats = (xs: number[], errors: number): ReadStats => ({
  n: xs.length,
  p50: quantile(xs, 0.5),
  p99: quantile(xs, 0.99),
  errors,
});

/** One kind of read, 10 a second, until stop.now; latencies of the 200s, the rest counted as errors. */
async function reads(url: string, token: string | undefined, stop: { now: boolean }): Promise<ReadStats> {
  const ms: number[] = [];
  let errors = 0;
  while (!stop.now) {
    const at = performance.now();
    const r = await fetch(url, token ? { headers: { Authorization: `Bearer ${token}` } } : {}).catch(() => null);
    await r?.arrayBuffer().catch(() => {});
    if (r?.status === 200) ms.push(performance.now() - at);
    else errors += 1;
    await sleep(Math.max(0, 100 - (performance.now() - at)));
  }
  return stats(ms, errors);
}

function readers(apiPort: number, otherToken: string) {
  const stop = { now: false };
  const done = Promise.all([
    reads(`http://127.0.0.1:${apiPort}/api/v3/broadcasts`, otherToken, stop),
    reads(`http://127.0.0.1:${apiPort}/api/health`, undefined, stop),
  ]);
  return {
    stop: async () => {
      stop.now = true;
      const [list, health] = await done;
      return { list, health };
    },
  };
}

export async function shareRound(o: {
  apiPort: number;
  pgc: pg.Client;
  bigToken: string;
  otherToken: string;
  /** The sender's phone number (the API's senderId). */
  senderId: string;
  bookId: string;
  contacts: number;
  load: () => string;
  timeoutMs: number;
}): Promise<ShareRun> {
  const api = `http://127.0.0.1:${o.apiPort}/api/v3`;
  const post = async (path: string, body: unknown = {}) => {
    const r = await fetch(`${api}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${o.bigToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json().catch(() => ({}))) as { data?: Record<string, unknown> } };
  };
  const idleReaders = readers(o.apiPort, o.otherToken);
  await sleep(5_000);
  const idle = await idleReaders.stop();

  const created = await post(`/broadcasts?senderId=${encodeURIComponent(o.senderId)}`, {
    broadcast: {
      name: "Everyone",
      template: { name: "order_update", language: "en" },
      audience: { contactBookUids: [o.bookId] },
      variables: { body: [{ source: "name", default: "there" }] },
    },
  });
  const uid = created.body.data?.broadcastUid as string | undefined;
  if (created.status !== 201 || !uid) throw new Error(`(e) draft: ${created.status} ${JSON.stringify(created.body)}`);

  const load = o.load();
  const during = readers(o.apiPort, o.otherToken);
  const startedAt = performance.now();
  const actions = ["pause", "resume", "start", "retry-failed"];
  const [started, ...changed] = await Promise.all([
    post(`/broadcasts/${uid}/start`),
    ...Array.from({ length: 20 }, (_, i) => post(`/broadcasts/${uid}/${actions[i % actions.length]}`)),
  ]);
  const changes: Record<string, number> = {};
  for (const c of [started, ...changed]) changes[c.status] = (changes[c.status] ?? 0) + 1;
  const statusOf = async () =>
    (await o.pgc.query<{ status: string }>(`SELECT status::text AS status FROM "Broadcast" WHERE id = $1`, [uid]))
      .rows[0]?.status;
  const until = Date.now() + o.timeoutMs;
  let status = await statusOf();
  while ((status === "STARTING" || status === "DRAFT") && Date.now() < until) {
    await sleep(200);
    status = await statusOf();
  }
  const startSeconds = (performance.now() - startedAt) / 1000;
  const duringReads = await during.stop();
  const recipients =
    (
      await o.pgc.query<{ n: number }>(`SELECT count(*)::int AS n FROM "BroadcastRecipient" WHERE "broadcastId" = $1`, [
        uid,
      ])
    ).rows[0]?.n ?? 0;
  // Nobody is messaged: the broadcast is cancelled (its queued recipients skipped in chunks),
  // and the next round starts once the sweep is done, so it does not measure this one's.
  await post(`/broadcasts/${uid}/cancel`);
  const sweepUntil = Date.now() + o.timeoutMs;
  const queued = async () =>
    (
      await o.pgc.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "BroadcastRecipient" WHERE "broadcastId" = $1 AND status = 'queued'`,
        [uid],
      )
    ).rows[0]?.n ?? 0;
  while ((await queued()) > 0 && Date.now() < sweepUntil) await sleep(1_000);
  return {
    contacts: o.contacts,
    recipients,
    startSeconds,
    completed: status === "SENDING" || status === "COMPLETED",
    idle,
    during: duringReads,
    changes,
    load,
  };
}

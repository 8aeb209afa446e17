// One measured broadcast of bench/broadcast.ts: a throughput round (b) on either side with the
// inbox read meanwhile (d), and a pacing round (a) judged by bench/pacing.ts.
import type pg from "pg";
import { cpuTimeMs, load1, sized, sleep, smokeCheck } from "./harness";
import { checkPacing, type PacingVerdict, type ProviderCall } from "./pacing";

export type Side = "real" | "bare";

/** CPU ms so far of a process and of the PostgreSQL backends of its application name (ended ones keep their last figure). */
export function cpuMeter(pgc: pg.Client, pid: number, app: string) {
  const seen = new Map<number, number>();
  return async () => {
    const rows = (await pgc.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [app])).rows;
    for (const { pid: b } of rows as { pid: number }[]) {
      const ms = cpuTimeMs(b);
      if (!Number.isNaN(ms)) seen.set(b, ms);
    }
    const backends = [...seen.values()].reduce((a, b) => a + b, 0);
    return { proc: cpuTimeMs(pid), backends };
  };
}
export type Meter = ReturnType<typeof cpuMeter>;

/** POST /start on a side's control endpoint. */
export async function startOn(port: number, body: unknown): Promise<{ uid: string; startMs: number }> {
  const r = await fetch(`http://127.0.0.1:${port}/start`, { method: "POST", body: JSON.stringify(body) });
  const out = (await r.json()) as { uid: string; startMs: number; error?: string };
  if (!r.ok) throw new Error(`start on ${port}: ${out.error}`);
  return out;
}

/** The calls the side's provider counted for this number since the last read (bench/broadcast-control.ts). */
async function takeCalls(port: number, phoneNumberId: string): Promise<ProviderCall[]> {
  return (await (await fetch(`http://127.0.0.1:${port}/calls?pnid=${phoneNumberId}`)).json()) as ProviderCall[];
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 100) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  console.log(`  (gave up waiting for ${what})`);
  return false;
}

const completed = async (c: pg.Client, uid: string) =>
  (await c.query<{ status: string }>(`SELECT status::text AS status FROM "Broadcast" WHERE id = $1`, [uid])).rows[0]
    ?.status === "COMPLETED";

/** Once COMPLETED: the status callbacks stored and applied (no recipient left without its first status, no callback unprocessed). */
async function settled(c: pg.Client, uid: string) {
  const r = await c.query<{ open: number; cb: number }>(
    `SELECT (SELECT count(*)::int FROM "BroadcastRecipient" WHERE "broadcastId" = $1 AND status = 'accepted') AS open,
            (SELECT count(*)::int FROM "ProviderCallback" WHERE "processedAt" IS NULL AND "deadAt" IS NULL) AS cb`,
    [uid],
  );
  return (r.rows[0]?.open ?? 1) === 0 && (r.rows[0]?.cb ?? 1) === 0;
}

type Latencies = { n: number; p50: number; p99: number; errors: number };

/** (d) The inbox while a broadcast sends: the conversation list and one thread, each 10 requests/s. */
function inboxLoad(apiPort: number, token: string, threadUid: string | undefined) {
  const stop = { now: false };
  const loop = async (path: string) => {
    const latencies: number[] = [];
    let errors = 0;
    while (!stop.now) {
      const t = performance.now();
      try {
        const r = await fetch(`http://127.0.0.1:${apiPort}${path}`, { headers: { Authorization: `Bearer ${token}` } });
        await r.arrayBuffer();
        if (r.status !== 200) errors += 1;
        else latencies.push(performance.now() - t);
      } catch {
        errors += 1;
      }
      await sleep(Math.max(0, 100 - (performance.now() - t)));
    }
    const s = latencies.sort((a, b) => a - b);
    const p = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
    return { n: s.length, p50: p(0.5), p99: p(0.99), errors } satisfies Latencies;
  };
  const none = { n: 0, p50: Number.NaN, p99: Number.NaN, errors: 0 } satisfies Latencies;
  const list = loop("/api/v3/conversations?limit=20");
  const thread = threadUid ? loop(`/api/v3/conversations/${threadUid}/messages`) : Promise.resolve(none);
  return {
    stop: async () => {
      stop.now = true;
      return { list: await list, thread: await thread };
    },
  };
}

export type FastRun = {
  side: Side;
  n: number;
  seconds: number;
  rate: number;
  cpuProc: number;
  cpuPg: number;
  cpuPerRecipient: number;
  startMs: number;
  failed: number;
  interrupted: number;
  load: string;
  inbox: { list: Latencies; thread: Latencies };
  /** What the provider counted of this broadcast's calls: refusals (130429) and the busiest 1,000 ms. */
  provider: { refused: number; mostInAnyWindow: number };
};

export type FastContext = {
  side: Side;
  port: number;
  pgc: pg.Client;
  meter: Meter;
  start: { customerId: string; senderId: string; bookIds: string[] };
  phoneNumberId: string;
  /** The thread (d) reads; none before the warm-up made one. */
  inbox: { apiPort: number; token: string; threadUid?: string };
};

/** (b) One broadcast on one side, from the start call until every status callback is applied. */
export async function fastRound(x: FastContext, measured = true): Promise<FastRun> {
  const load = load1();
  const inbox = inboxLoad(x.inbox.apiPort, x.inbox.token, x.inbox.threadUid);
  const before = await x.meter();
  const t0 = performance.now();
  await takeCalls(x.port, x.phoneNumberId); // what came before is not this round's
  const { uid, startMs } = await startOn(x.port, x.start);
  const done = await waitFor(
    `${x.side} broadcast ${uid} to complete`,
    () => completed(x.pgc, uid),
    sized(3_600_000, 120_000),
  );
  smokeCheck(done, `(b) ${x.side}: the broadcast did not complete`);
  const seconds = (performance.now() - t0) / 1000;
  const inboxResult = await inbox.stop();
  smokeCheck(
    await waitFor(`${x.side} callbacks of ${uid}`, () => settled(x.pgc, uid), 60_000, 250),
    `(b) ${x.side}: the status callbacks were not all applied`,
  );
  const after = await x.meter();
  const verdict = checkPacing(await takeCalls(x.port, x.phoneNumberId), 1_000);
  const counts = (
    await x.pgc.query<{ n: number; failed: number; interrupted: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'interrupted')::int AS interrupted
         FROM "BroadcastRecipient" WHERE "broadcastId" = $1 AND status <> 'skipped'`,
      [uid],
    )
  ).rows[0] ?? { n: 0, failed: 0, interrupted: 0 };
  smokeCheck(
    counts.n > 0 && counts.interrupted === 0,
    `(b) ${x.side}: ${counts.n} recipients, ${counts.interrupted} interrupted`,
  );
  smokeCheck(
    inboxResult.list.errors + inboxResult.thread.errors === 0,
    `(d) the inbox answered ${inboxResult.list.errors + inboxResult.thread.errors} errors`,
  );
  // What autovacuum would have done by the next round on a production server (this machine's
  // PostgreSQL runs with autovacuum off, its CI configuration): the round's dead rows vacuumed
  // and its tables analysed, on each side's database alike, outside the measured time. Without it
  // each round ran on the dead rows and stale statistics of every round before, and (a) after
  // three rounds paced at 60-64/s instead of 80 (docs/benchmarks.md "Where things stand").
  await x.pgc.query("VACUUM (ANALYZE)");
  const cpuProc = after.proc - before.proc;
  const cpuPg = after.backends - before.backends;
  const run: FastRun = {
    side: x.side,
    n: counts.n,
    seconds,
    rate: counts.n / seconds,
    cpuProc,
    cpuPg,
    cpuPerRecipient: (cpuProc + cpuPg) / counts.n,
    startMs,
    failed: counts.failed,
    interrupted: counts.interrupted,
    load,
    inbox: inboxResult,
    provider: { refused: verdict.refused, mostInAnyWindow: verdict.mostInAnyWindow },
  };
  console.log(
    `  (b) ${measured ? "" : "warm-up, "}${x.side}: ${run.n} recipients in ${seconds.toFixed(1)} s = ${run.rate.toFixed(0)}/s; CPU ${run.cpuPerRecipient.toFixed(2)} ms/recipient (process ${(cpuProc / run.n).toFixed(2)}, PostgreSQL ${(cpuPg / run.n).toFixed(2)}); start ${startMs.toFixed(0)} ms; inbox p99 list ${inboxResult.list.p99.toFixed(0)} ms, thread ${inboxResult.thread.p99.toFixed(0)} ms; the provider refused ${verdict.refused} (busiest 1,000 ms: ${verdict.mostInAnyWindow} calls); load ${load}`,
  );
  return run;
}

export type PacedRun = PacingVerdict & {
  n: number;
  /** Gaps between calls longer than four spacings (pausesOf). */
  pauses: { count: number; totalMs: number; longestMs: number };
  /** The most calls in one clock second (what a fixed-second count would see). */
  maxSecond: number;
  seconds: number;
  load: string;
};

/** (a) One paced broadcast on the real side; what the provider counted, judged by bench/pacing.ts. */
export async function pacedRound(
  port: number,
  pgc: pg.Client,
  start: { customerId: string; senderId: string; bookIds: string[] },
  phoneNumberId: string,
  throughput: number,
): Promise<PacedRun> {
  const load = load1();
  const t0 = performance.now();
  await takeCalls(port, phoneNumberId); // what came before is not this run's
  const { uid } = await startOn(port, start);
  smokeCheck(
    await waitFor(`paced broadcast ${uid}`, () => completed(pgc, uid), 600_000),
    "(a) the paced broadcast did not complete",
  );
  const seconds = (performance.now() - t0) / 1000;
  // As after a (b) round: what autovacuum would have done before the next run.
  await pgc.query("VACUUM (ANALYZE)");
  // Every call the provider (the simulator, in the worker's process) counted, and its refusals.
  const calls = await takeCalls(port, phoneNumberId);
  const verdict = checkPacing(calls, throughput);
  const bySecond = new Map<number, number>();
  for (const c of calls) bySecond.set(Math.floor(c.at / 1000), (bySecond.get(Math.floor(c.at / 1000)) ?? 0) + 1);
  const pauses = pausesOf(calls, throughput);
  const run: PacedRun = {
    ...verdict,
    pauses,
    n: calls.filter((c) => c.refusedWith === undefined).length,
    maxSecond: Math.max(0, ...bySecond.values()),
    seconds,
    load,
  };
  console.log(
    `  (a) paced: ${run.n} accepted at ${run.rate.toFixed(1)}/s (first to last call; done in ${seconds.toFixed(1)} s); ${run.mostInAnyWindow} calls in the busiest 1,000 ms, ${run.maxSecond} in the busiest clock second; ${run.refused} refused for throughput; load ${load}; ${describePauses(pauses)}${run.problems.length ? `; ${run.problems.join("; ")}` : ""}`,
  );
  return run;
}

/**
 * Where a paced run lost its time: the gaps between consecutive accepted calls longer than four
 * times the pace's spacing (a steady run has none), their sum and the longest, in ms.
 */
function pausesOf(
  calls: readonly ProviderCall[],
  throughput: number,
): { count: number; totalMs: number; longestMs: number } {
  const at = calls
    .filter((c) => c.refusedWith === undefined)
    .map((c) => c.at)
    .sort((a, b) => a - b);
  const threshold = (4 * 1000) / throughput;
  let count = 0;
  let totalMs = 0;
  let longestMs = 0;
  for (let i = 1; i < at.length; i++) {
    const gap = (at[i] ?? 0) - (at[i - 1] ?? 0);
    if (gap <= threshold) continue;
    count++;
    totalMs += gap;
    longestMs = Math.max(longestMs, gap);
  }
  return { count, totalMs, longestMs };
}

const describePauses = (p: { count: number; totalMs: number; longestMs: number }) =>
  p.count === 0
    ? "no pause between calls"
    : `${p.count} pauses between calls (${(p.totalMs / 1000).toFixed(1)} s in all, the longest ${p.longestMs.toFixed(0)} ms)`;

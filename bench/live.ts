// npm run bench:live: the dashboard's live stream under a sustained inbound rate (docs/inbox.md
// "Live updates", docs/benchmarks.md "Live updates") on PostgreSQL (a fresh database,
// switchboard_bench_live, on the local server; BENCH_PG_URL to change the server). Two
// instances (bench/live-server.ts: the stream of lib/domains/live on bare node:http, the
// provider callback endpoint and the real callback processor) on one database; --streams
// (default 200) Server-Sent Events streams of one member open on instance A. Each of
// --rounds (default 3) runs:
//  (a) --rate (default 50) inbound messages a second for --seconds (default 60), each from a
//      contact of its own (so each is one `message.created` of its own conversation), posted
//      on a fixed schedule (not one after another) as signed provider callbacks, alternately
//      to A and B; whichever instance's processor applies it, every stream on A must receive
//      its `message.created`: the ones not there 10 s after the last POST are missing, per
//      stream; the time from each POST to each stream's receipt (p50, p99), split at the
//      moment a plain LISTEN connection of the bench hears its notice: POST to NOTIFY (the
//      store, the processor's queue and transaction) and NOTIFY to the stream (the fan-out);
//  (b) --idle seconds (default 30) with the streams open and nothing happening: A's CPU time
//      (user + system), as a share of one core.
// Prints target (f) (every event delivered at the rate held, p99 under 1 s, idle under 1% of
// a core) with met / not met over the runs, the spread and the machine's load, and writes
// docs/benchmarks.md's "Live updates" section (not with --no-write). --smoke: 5 streams,
// 10/s for 2 s, one run; fails if a delivery is missing. Ports 3430-3431 (BENCH_PORT_BASE).
import http from "node:http";
import pg from "pg";
import {
  BENCH_SECRETS,
  benchDatabaseUrl,
  benchPort,
  cpuTimeMs,
  flag,
  freshDatabase,
  loadAverages,
  machineLine,
  numSpread,
  reportTargets,
  roundsFlag,
  runMain,
  sized,
  sleep,
  smokeCheck,
  spread,
  startTs,
  stopChild,
  type Target,
  waitHttp,
  writeSectionUnlessDry,
} from "./harness";

const DB_NAME = "switchboard_bench_live";
const STREAMS = flag("streams", sized(200, 5));
const RATE = flag("rate", sized(50, 10));
const SECONDS = flag("seconds", sized(60, 2));
const IDLE_SECONDS = flag("idle", sized(30, 2));
/** How long after the last POST a delivery may still arrive (later: missing). */
const SETTLE_MS = 10_000;
const rounds = roundsFlag();
const dbUrl = benchDatabaseUrl(DB_NAME);
const PORT = { a: benchPort(30), b: benchPort(31) };

const childEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: dbUrl,
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  ...BENCH_SECRETS,
};
Object.assign(process.env, childEnv);

/** One open stream: when each conversation's `message.created` arrived (ms since epoch). */
type Stream = { arrivals: Map<string, number>; ended: boolean; req: http.ClientRequest };

const CONVERSATION = /"kind":"message\.created".*?"conversationUid":"([^"]+)"/;

function openStream(port: number): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream: Stream = { arrivals: new Map(), ended: false, req: undefined as unknown as http.ClientRequest };
    stream.req = http.get({ host: "127.0.0.1", port, path: "/live", agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${res.statusCode}`));
        return;
      }
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const now = Date.now();
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const uid = CONVERSATION.exec(buffer.slice(0, end))?.[1];
          if (uid && !stream.arrivals.has(uid)) stream.arrivals.set(uid, now);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
      });
      res.on("close", () => {
        stream.ended = true;
      });
      resolve(stream);
    });
    stream.req.on("error", reject);
  });
}

const pctl = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

type Round = {
  posted: number;
  /** Messages a second actually posted (the schedule may slip on a loaded machine). */
  rate: number;
  p50: number;
  p99: number;
  /** Deliveries missing, over all streams; and the streams missing at least one. */
  missing: number;
  streamsMissing: number;
  /** POSTs never answered 200 in 5 tries (their messages are missing); tries again after a failure. */
  refused: number;
  retried: number;
  /** p99 from the POST to the bench's own LISTEN hearing the notice, and from then to each stream. */
  notifyP99: number;
  fanoutP99: number;
  ended: number;
  idlePct: number;
  load: string;
};

async function main() {
  const loadBefore = loadAverages();
  console.log(`Fresh database ${DB_NAME}…`);
  await freshDatabase(DB_NAME, dbUrl);
  const { db } = await import("@/lib/db");
  const { addMember } = await import("@/lib/domains/members/service");
  const { openSession } = await import("@/lib/domains/security/sessions");
  const { envelopeFor } = await import("@/lib/domains/provider/simulator-callbacks");
  const { inboundTextChange } = await import("@/lib/domains/provider/simulator-inbound");
  const { signProviderBody } = await import("@/lib/domains/provider/callbacks/signature");
  const customer = await db.customer.create({ data: { name: "Live bench", plan: "pro" } });
  const sender = await db.sender.create({
    data: {
      customerId: customer.id,
      phoneNumber: "+15550001000",
      phoneNumberId: "109000001",
      wabaId: "209000001",
      isDefault: true,
    },
  });
  const member = await addMember({
    customerId: customer.id,
    email: "live-bench@example.test",
    password: "a-long-bench-password",
    role: "agent",
    senders: [sender.phoneNumber],
  });
  // The streams are a signed-in member's: a real session, read per stream as the route does.
  const sessionId = await openSession({ userId: member.id, customerId: customer.id, ip: null, userAgent: "bench" });

  const env = { ...childEnv, BENCH_USER_ID: member.id, BENCH_CUSTOMER_ID: customer.id, BENCH_SESSION_ID: sessionId };
  const a = startTs(["bench/live-server.ts"], { ...env, PORT: String(PORT.a) });
  const b = startTs(["bench/live-server.ts"], { ...env, PORT: String(PORT.b) });
  await waitHttp(`http://127.0.0.1:${PORT.a}/streams`);
  await waitHttp(`http://127.0.0.1:${PORT.b}/streams`);

  console.log(`Opening ${STREAMS} streams on instance A…`);
  const streams: Stream[] = [];
  for (let i = 0; i < STREAMS; i++) streams.push(await openStream(PORT.a));
  for (;;) {
    const { streams: n } = (await (await fetch(`http://127.0.0.1:${PORT.a}/streams`)).json()) as { streams: number };
    if (n >= STREAMS) break;
    await sleep(100);
  }
  await sleep(1_000); // the subscription's LISTEN in place (its start-up resync has gone out)

  // When each conversation's notice reached a plain listener: where the time goes.
  const { CHANNELS } = await import("@/lib/db/wakeups");
  const listener = new pg.Client({ connectionString: dbUrl });
  await listener.connect();
  await listener.query(`LISTEN ${CHANNELS.live}`);
  const heard = new Map<string, number>();
  listener.on("notification", (n) => {
    const now = Date.now();
    try {
      const { e } = JSON.parse(n.payload ?? "") as { e?: { kind: string; conversationUid?: string }[] };
      for (const event of e ?? [])
        if (event.kind === "message.created" && event.conversationUid && !heard.has(event.conversationUid))
          heard.set(event.conversationUid, now);
    } catch {
      // an access notice or another payload: not timed
    }
  });

  let contact = 0;
  let refused = 0;
  let retried = 0;
  /** Why tries failed (status or error), printed per run. */
  const refusedWith = new Map<string, number>();
  /**
   * One signed callback, as the provider sends it: a failed connection or a 5xx is tried
   * again after a second (the provider retries), at most 5 times; counted as retried, and as
   * refused when no try was answered 200 (its message is then missing on every stream).
   */
  async function post(port: number, body: string): Promise<void> {
    let why = "";
    for (let attempt = 0; attempt < 5; attempt++) {
      if (attempt > 0) {
        retried += 1;
        await sleep(1_000);
      }
      try {
        const res = await fetch(`http://127.0.0.1:${port}/inbound`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": signProviderBody(body) },
          body,
        });
        await res.arrayBuffer();
        if (res.status === 200) return;
        why = String(res.status);
        if (res.status < 500) break;
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        why = cause?.code ?? cause?.message ?? String(error);
      }
      refusedWith.set(why, (refusedWith.get(why) ?? 0) + 1);
    }
    refused += 1;
  }

  /** `count` messages at `rate` a second, alternately to A and B: each one's contact and POST time. */
  async function inbound(count: number, rate: number): Promise<{ posts: Map<string, number>; seconds: number }> {
    const posts = new Map<string, number>();
    const inFlight: Promise<void>[] = [];
    const start = Date.now();
    for (let i = 0; i < count; i++) {
      const due = start + (i * 1_000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      const from = `+1555${String(contact++).padStart(7, "0")}`;
      const body = envelopeFor([
        inboundTextChange(
          { phoneNumberId: sender.phoneNumberId ?? "", phoneNumber: sender.phoneNumber, wabaId: sender.wabaId },
          { from, text: `Hello ${i}`, name: "Bench" },
        ),
      ]);
      posts.set(from, Date.now());
      inFlight.push(post(i % 2 === 0 ? PORT.a : PORT.b, body));
    }
    const seconds = (Date.now() - start) / 1_000;
    await Promise.all(inFlight);
    return { posts, seconds };
  }

  /** Each posted message's conversation, then each stream's receipt of it. */
  async function deliveries(posts: Map<string, number>) {
    const uidOf = new Map<string, string>();
    const until = Date.now() + SETTLE_MS;
    for (;;) {
      // A message not applied yet has no conversation: looked up again until all have one.
      if (uidOf.size < posts.size) {
        const rows = await db.conversation.findMany({
          where: { customerId: customer.id, contactPhoneNumber: { in: [...posts.keys()] } },
          select: { id: true, contactPhoneNumber: true },
        });
        for (const row of rows) uidOf.set(row.contactPhoneNumber, row.id);
      }
      const uids = [...uidOf.values()];
      if (uidOf.size === posts.size && streams.every((s) => uids.every((uid) => s.arrivals.has(uid)))) break;
      if (Date.now() >= until) break;
      await sleep(200);
    }
    const latencies: number[] = [];
    const toNotify: number[] = [];
    const fanout: number[] = [];
    for (const [from, t0] of posts) {
      const at = heard.get(uidOf.get(from) ?? "");
      if (at !== undefined) toNotify.push(at - t0);
    }
    let missing = 0;
    let streamsMissing = 0;
    for (const s of streams) {
      let own = 0;
      for (const [from, t0] of posts) {
        const uid = uidOf.get(from);
        const at = uid === undefined ? undefined : s.arrivals.get(uid);
        if (at === undefined) own += 1;
        else {
          latencies.push(at - t0);
          const notice = heard.get(uid ?? "");
          if (notice !== undefined) fanout.push(at - notice);
        }
      }
      missing += own;
      if (own > 0) streamsMissing += 1;
      s.arrivals.clear();
    }
    heard.clear();
    const sorted = (xs: number[]) => xs.sort((x, y) => x - y);
    return {
      latencies: sorted(latencies),
      toNotify: sorted(toNotify),
      fanout: sorted(fanout),
      missing,
      streamsMissing,
    };
  }

  // Warm-up (module loading, JIT, the first conversations' rows): not measured.
  await deliveries((await inbound(10, 10)).posts);

  const results: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    const load = loadAverages();
    refused = 0;
    retried = 0;
    refusedWith.clear();
    console.log(`  run ${r + 1}/${rounds}: ${RATE}/s for ${SECONDS} s to ${STREAMS} streams (load ${load})…`);
    const sent = await inbound(RATE * SECONDS, RATE);
    const got = await deliveries(sent.posts);
    await sleep(sized(2_000, 0));
    const before = cpuTimeMs(a.pid ?? 0);
    await sleep(IDLE_SECONDS * 1_000);
    const idlePct = ((cpuTimeMs(a.pid ?? 0) - before) / (IDLE_SECONDS * 1_000)) * 100;
    const row: Round = {
      posted: sent.posts.size,
      rate: sent.posts.size / Math.max(sent.seconds, 1 / RATE),
      p50: pctl(got.latencies, 0.5),
      p99: pctl(got.latencies, 0.99),
      missing: got.missing,
      streamsMissing: got.streamsMissing,
      refused,
      retried,
      notifyP99: pctl(got.toNotify, 0.99),
      fanoutP99: pctl(got.fanout, 0.99),
      ended: streams.filter((s) => s.ended).length,
      idlePct,
      load,
    };
    results.push(row);
    smokeCheck(refused === 0, `${refused} inbound callbacks refused`);
    smokeCheck(row.missing === 0, `${row.missing} live deliveries never arrived`);
    console.log(
      `  run ${r + 1}/${rounds}: ${row.posted} posted at ${row.rate.toFixed(1)}/s; p50 ${row.p50} ms p99 ${row.p99} ms; missing ${row.missing} (on ${row.streamsMissing} streams; ${row.refused} POSTs refused, ${row.retried} tries again; ${row.ended} streams ended); POST to NOTIFY p99 ${row.notifyP99} ms, NOTIFY to stream p99 ${row.fanoutP99} ms; idle ${idlePct.toFixed(2)}% of a core`,
    );
    if (refusedWith.size > 0)
      console.log(`  failed tries: ${[...refusedWith].map(([why, n]) => `${why} x${n}`).join(", ")}`);
  }
  await listener.end();
  for (const s of streams) s.req.destroy();
  await stopChild(a);
  await stopChild(b);
  await db.$disconnect();

  const p99 = spread(results.map((r) => r.p99));
  const p50 = spread(results.map((r) => r.p50));
  const idle = spread(results.map((r) => r.idlePct));
  const rate = spread(results.map((r) => r.rate));
  const missing = results.reduce((n, r) => n + r.missing, 0);
  const refusedAll = results.reduce((n, r) => n + r.refused, 0);
  const held = rate.min >= RATE * 0.95;
  const pct = (s: { min: number; median: number; max: number }) =>
    `${s.median.toFixed(2)}% (${s.min.toFixed(2)}-${s.max.toFixed(2)}%)`;
  const targets: Target[] = [
    {
      what: `(f) ${STREAMS} streams, ${RATE} inbound messages/s for ${SECONDS} s: every message.created on every stream`,
      goal: `none missing, ${RATE}/s held`,
      measured: `${missing} of ${results.reduce((n, r) => n + r.posted, 0) * STREAMS} missing, ${rate.median.toFixed(1)}/s (${rate.min.toFixed(1)}-${rate.max.toFixed(1)}) posted, ${refusedAll} POSTs refused (${results.reduce((n, r) => n + r.retried, 0)} tries again)`,
      met: missing === 0 && refusedAll === 0 && held,
    },
    {
      what: `(f) the same, POST to receipt on every stream, p99`,
      goal: "under 1 s",
      measured: `${numSpread(p99)} ms (p50 ${numSpread(p50)} ms; POST to NOTIFY p99 ${numSpread(spread(results.map((r) => r.notifyP99)))} ms, NOTIFY to stream p99 ${numSpread(spread(results.map((r) => r.fanoutP99)))} ms)`,
      met: p99.max < 1_000,
    },
    {
      what: `(f) ${STREAMS} idle streams, CPU of instance A`,
      goal: "under 1% of a core",
      measured: pct(idle),
      met: idle.max < 1,
    },
  ];
  const lines = reportTargets(targets);
  console.log(`load average (1 / 5 / 15 min) ${loadBefore} before, ${loadAverages()} after`);
  const section = `## Live updates (\`npm run bench:live\`)

${machineLine(loadBefore)}.

Target (f): ${STREAMS} Server-Sent Events streams of one agent open on instance A
(\`bench/live-server.ts\`: the stream of \`lib/domains/live\` on bare node:http, as
\`app/api/dashboard/live\` returns it without Next's session read in front); a second
instance B on the same PostgreSQL database. Both take signed provider callbacks on the real
endpoint and run the real callback processor (woken by its NOTIFY on each process's one
listening connection, which also carries the live notices). Per run, ${RATE} inbound messages a second
for ${SECONDS} s, each from a contact of its own (one \`message.created\` of its own conversation), posted on
a fixed schedule, alternately to A and B; every stream on A must receive every one (missing:
not there ${SETTLE_MS / 1_000} s after the last POST, counted per stream), timed from the provider POST to
each stream's receipt (so the store, the processor's transaction, NOTIFY and the fan-out are
in it), and split where a plain LISTEN connection of the bench hears the notice: POST to
NOTIFY (the store, the processor's queue and transaction) and NOTIFY to the stream (the
fan-out). A POST whose connection fails or that is answered 5xx is tried again a second later
(as the provider retries), at most 5 times; one never answered 200 is refused, and its message
is missing on every stream. Then ${IDLE_SECONDS} s with the streams open and nothing happening (A's CPU time; its heartbeats
and session checks run every 15 s, the processor's safety poll every 30 s). ${rounds} runs;
median (min-max) over the runs. The bench's own client (parsing every stream) shares the cores.

| run | load (1 / 5 / 15 min) at start | posted (rate) | tried again / refused | p50 / p99 (ms) | p99 POST to NOTIFY / NOTIFY to stream (ms) | missing (streams) | idle CPU of A |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${results.map((r, i) => `| ${i + 1} | ${r.load} | ${r.posted} (${r.rate.toFixed(1)}/s) | ${r.retried} / ${r.refused} | ${r.p50} / ${r.p99} | ${r.notifyP99} / ${r.fanoutP99} | ${r.missing} (${r.streamsMissing}) | ${r.idlePct.toFixed(2)}% |`).join("\n")}

${lines.join("\n")}
`;
  writeSectionUnlessDry("## Live updates", section);
}

await runMain(main);

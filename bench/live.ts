// npm run bench:live: the dashboard's live stream (docs/inbox.md "Live updates") on
// PostgreSQL (a fresh database, switchboard_bench_live, on the local server; BENCH_PG_URL to
// change the server). Two instances (bench/live-server.ts: the stream of lib/domains/live on
// bare node:http, and the provider callback endpoint with the callback processor) on one
// database; --streams (default 200) Server-Sent Events streams of one member open on
// instance A. Each of --rounds (default 3) rounds:
//  (a) --messages (default 20) inbound messages, one after another, posted to A as signed
//      provider callbacks: the time from the POST to each stream's `message.created`;
//  (b) the same posted to instance B (another process): does A's every stream get them, and when;
//  (c) --idle seconds (default 30) with the streams open and nothing happening: A's CPU time
//      (user + system), as a share of one core.
// Prints the targets (p99 under 1 s to all streams; idle streams under 1% of a core; B's
// inbound reaches A's streams) with met / not met, and writes docs/benchmarks.md's "Live
// updates" section (not with --no-write). Ports 3430-3431 (BENCH_PORT_BASE).
import http from "node:http";
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
// --smoke (bench/harness.ts): a few streams and messages, one short round, every one delivered.
const STREAMS = flag("streams", sized(200, 5));
const MESSAGES = flag("messages", sized(20, 3));
const IDLE_SECONDS = flag("idle", sized(30, 2));
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

/** One open stream: when each `message.created` arrived (ms since epoch), in order. */
type Stream = { arrivals: number[]; req: http.ClientRequest };

function openStream(port: number): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream: Stream = { arrivals: [], req: undefined as unknown as http.ClientRequest };
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
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          if (block.includes('"kind":"message.created"')) stream.arrivals.push(now);
        }
      });
      resolve(stream);
    });
    stream.req.on("error", reject);
  });
}

const pctl = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

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
  await db.$disconnect();

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

  let contact = 0;
  /** Messages posted to `port` one after another; each stream's latency from the POST. */
  async function inbound(port: number, count = MESSAGES): Promise<{ latencies: number[]; missing: number }> {
    const latencies: number[] = [];
    let missing = 0;
    for (let i = 0; i < count; i++) {
      const seen = streams.map((s) => s.arrivals.length);
      const from = `+1555900${String(contact++).padStart(4, "0")}`;
      const body = envelopeFor([
        inboundTextChange(
          { phoneNumberId: sender.phoneNumberId ?? "", phoneNumber: sender.phoneNumber, wabaId: sender.wabaId },
          { from, text: `Hello ${i}`, name: "Bench" },
        ),
      ]);
      const t0 = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/inbound`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signProviderBody(body) },
        body,
      });
      if (res.status !== 200) throw new Error(`inbound answered ${res.status}`);
      const until = t0 + 10_000;
      while (Date.now() < until && streams.some((s, k) => s.arrivals.length <= (seen[k] ?? 0))) await sleep(5);
      for (const [k, s] of streams.entries()) {
        const at = s.arrivals[seen[k] ?? 0];
        if (at === undefined) missing += 1;
        else latencies.push(at - t0);
      }
    }
    return { latencies: latencies.sort((x, y) => x - y), missing };
  }

  // Warm-up (module loading, JIT, the first conversations' rows): not measured.
  await inbound(PORT.a, 3);
  await inbound(PORT.b, 3);

  const results: {
    aP99: number;
    aP50: number;
    aMissing: number;
    bP99: number;
    bP50: number;
    bMissing: number;
    idlePct: number;
  }[] = [];
  for (let r = 0; r < rounds; r++) {
    const onA = await inbound(PORT.a);
    const onB = await inbound(PORT.b);
    await sleep(sized(2_000, 0));
    const before = cpuTimeMs(a.pid ?? 0);
    await sleep(IDLE_SECONDS * 1_000);
    const idlePct = ((cpuTimeMs(a.pid ?? 0) - before) / (IDLE_SECONDS * 1_000)) * 100;
    const row = {
      aP50: pctl(onA.latencies, 0.5),
      aP99: pctl(onA.latencies, 0.99),
      aMissing: onA.missing,
      bP50: pctl(onB.latencies, 0.5),
      bP99: pctl(onB.latencies, 0.99),
      bMissing: onB.missing,
      idlePct,
    };
    results.push(row);
    smokeCheck(row.aMissing + row.bMissing === 0, `${row.aMissing + row.bMissing} live deliveries never arrived`);
    console.log(
      `  round ${r + 1}/${rounds}: A p50 ${row.aP50} ms p99 ${row.aP99} ms (missing ${row.aMissing}); B->A p50 ${row.bP50} ms p99 ${row.bP99} ms (missing ${row.bMissing}); idle ${idlePct.toFixed(2)}% of a core`,
    );
  }
  for (const s of streams) s.req.destroy();
  await stopChild(a);
  await stopChild(b);

  const aP99 = spread(results.map((r) => r.aP99));
  const bP99 = spread(results.map((r) => r.bP99));
  const idle = spread(results.map((r) => r.idlePct));
  const missing = results.reduce((n, r) => n + r.aMissing + r.bMissing, 0);
  const pct = (s: { min: number; median: number; max: number }) =>
    `${s.median.toFixed(2)}% (${s.min.toFixed(2)}-${s.max.toFixed(2)}%)`;
  const targets: Target[] = [
    {
      what: `An inbound message on instance A reaches all ${STREAMS} of its streams, p99`,
      goal: "under 1 s, none missing",
      measured: `${numSpread(aP99)} ms, ${results.reduce((n, r) => n + r.aMissing, 0)} missing`,
      met: aP99.max < 1_000 && results.every((r) => r.aMissing === 0),
    },
    {
      what: `${STREAMS} idle streams, CPU of instance A`,
      goal: "under 1% of a core",
      measured: pct(idle),
      met: idle.max < 1,
    },
    {
      what: `An inbound message on instance B reaches A's ${STREAMS} streams, p99`,
      goal: "every one delivered",
      measured: `${numSpread(bP99)} ms, ${results.reduce((n, r) => n + r.bMissing, 0)} missing`,
      met: results.every((r) => r.bMissing === 0),
    },
  ];
  const lines = reportTargets(targets);
  const section = `## Live updates (\`npm run bench:live\`)

${machineLine(loadBefore)}.

Two instances (\`bench/live-server.ts\`: the stream of \`lib/domains/live\` on bare node:http, as
\`app/api/dashboard/live\` returns it without Next's session read in front, and the provider
callback endpoint followed at once by the callback processor) on one PostgreSQL database;
${STREAMS} streams of one agent open on instance A. Per round, ${MESSAGES} inbound messages posted
one after another to A, then ${MESSAGES} to B, timed from the provider POST to each stream's
\`message.created\` (so the store, the processor's transaction and NOTIFY are in it); then
${IDLE_SECONDS} s with the streams open and nothing happening (A's CPU time; its heartbeats and member
checks run every 15 s). ${rounds} rounds; median (min-max) over the rounds.

| round | A: p50 / p99 (ms) | B to A: p50 / p99 (ms) | missing | idle CPU of A |
| ----- | ----------------- | ---------------------- | ------- | ------------- |
${results.map((r, i) => `| ${i + 1} | ${r.aP50} / ${r.aP99} | ${r.bP50} / ${r.bP99} | ${r.aMissing + r.bMissing} | ${r.idlePct.toFixed(2)}% |`).join("\n")}

${lines.join("\n")}
${missing > 0 ? `\n${missing} deliveries never arrived within 10 s.\n` : ""}`;
  writeSectionUnlessDry("## Live updates", section);
}

await runMain(main);

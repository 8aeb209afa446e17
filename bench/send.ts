// npm run bench:send: accepted sends per second through the lean server (the router on
// node:http, as `npm run serve:api`) against the built-in provider simulator, on a fresh
// database of the local PostgreSQL, measured with autocannon. Every request is a real send:
// token auth, send rate limits (set high), sender resolution, validation, blacklist check,
// template and balance checks, the message row, the simulator call and the provider id,
// while the simulator's signed status callbacks (3 per message) flow back into the same
// server's provider endpoint. Writes the "Sends" section of docs/benchmarks.md.
//
// The lean server and a bare node:http + pg baseline written from scratch
// (bench/send-bare-server.ts) are measured INTERLEAVED (bench/harness.ts `interleave`);
// prints each target (>= 1,000 accepted/s; (g) >= 75% of bare) with met / not met.
//
// Flags: --duration=SECONDS per run (default 5), --rounds=N (default 3), --connections=N
// (default 32), --no-write, --smoke (each route once for a second, bench/harness.ts). Ports 3410-3411 (BENCH_PORT_BASE).
// BENCH_PG_URL: the server's admin URL (default postgresql://postgres@127.0.0.1:5432/postgres).
import pg from "pg";
import {
  type AutocannonRequest,
  autocannon,
  BENCH_SECRETS,
  benchDatabaseUrl,
  benchPort,
  cpuCell,
  cpuRatioCell,
  flag,
  freshDatabase,
  type Interleaved,
  interleave,
  loadAverages,
  machineLine,
  NO_RATE_LIMITS,
  numSpread,
  pctSpread,
  reportTargets,
  roundsFlag,
  runMain,
  sized,
  sleep,
  smokeCheck,
  spread,
  startTs,
  stopChild,
  summary,
  type Target,
  toRun,
  waitHttp,
  warmUpSeconds,
  writeSectionUnlessDry,
} from "./harness";

const duration = flag("duration", sized(5, 3));
const rounds = roundsFlag();
const connections = flag("connections", sized(32, 4));
const DB_NAME = "switchboard_bench_send";
const PORT = { lean: benchPort(10), bare: benchPort(11) };
const SENDERS = 4;
const dbUrl = benchDatabaseUrl(DB_NAME, "bench:send");

const childEnv: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "/tmp",
  DATABASE_URL: dbUrl,
  ...NO_RATE_LIMITS,
  // The provider's upgraded tier per number (docs/api/limits.md "Provider limits"); four senders share the load.
  SIMULATOR_THROUGHPUT_PER_SECOND: "1000",
  SIMULATOR_FAILURE_RATE: "0.03",
  // Contacts' replies are inbound load, not sends: measured by bench:events.
  SIMULATOR_REPLY_RATE: "0",
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  ...BENCH_SECRETS,
};
Object.assign(process.env, childEnv);

async function prepare(): Promise<{ token: string; senders: string[] }> {
  await freshDatabase(DB_NAME, dbUrl);
  const { db } = await import("@/lib/db");
  const customer = await db.customer.create({ data: { name: "Bench sender customer", plan: "pro" } });
  const senders: string[] = [];
  for (let i = 0; i < SENDERS; i++) {
    const s = await db.sender.create({
      data: {
        customerId: customer.id,
        phoneNumber: `+1555020000${i}`,
        phoneNumberId: `10900000002${i}`,
        wabaId: "209000000001",
        isDefault: i === 0,
      },
    });
    senders.push(s.phoneNumber);
  }
  await db.template.create({
    data: {
      customerId: customer.id,
      name: "order_update",
      language: "en",
      category: "UTILITY",
      status: "APPROVED",
      providerTemplateId: "100000000000001",
    },
  });
  // Free-form sends need an open customer service window (docs/conversations.md): these
  // contacts wrote to every sender just now.
  await db.$executeRawUnsafe(
    `INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "lastMessageAt",
       "lastInboundAt", "windowExpiresAt", "createdAt", "updatedAt")
     SELECT 'conv_' || substr(md5(s."id" || g), 1, 24), s."customerId", s."id", '+1416' || g,
       now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', (now() AT TIME ZONE 'UTC') + interval '24 hours',
       now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
     FROM "Sender" s CROSS JOIN generate_series(${ENGAGED_FIRST}, ${ENGAGED_FIRST + ENGAGED - 1}) AS g
     WHERE s."customerId" = $1`,
    customer.id,
  );
  // Statistics for the planner, as autovacuum would have gathered them by now on a production
  // server: this machine's PostgreSQL runs with autovacuum off (its CI configuration), and on a
  // never-analysed "Conversation" the window read scanned a sender's 20,000 conversations per
  // send (docs/benchmarks.md "Where things stand").
  await db.$executeRawUnsafe("ANALYZE");
  const { setRate } = await import("@/lib/domains/billing/rate-card");
  await setRate({ category: "utility", rate: 0.0125, customerId: customer.id });
  await db.billingTransaction.create({
    data: { customerId: customer.id, type: "credit", amount: 1_000_000, description: "bench credit" },
  });
  const { issueToken } = await import("@/lib/domains/tokens/service");
  const { token } = await issueToken({ customerId: customer.id, name: "bench" });
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
  return { token, senders };
}

let seq = 0;
const recipientNo = () => `+1415${String(1_000_000 + (seq++ % 8_000_000)).padStart(7, "0")}`;
/** Contacts with an open window on every sender (seeded in prepare). */
const ENGAGED_FIRST = 1_000_000;
// Smoke runs send for seconds: a few hundred contacts do (a 60,000-row seed took over the
// statement timeout on a busy machine).
const ENGAGED = sized(20_000, 500);
let engagedSeq = 0;
const engagedNo = () => `+1416${ENGAGED_FIRST + (engagedSeq++ % ENGAGED)}`;

type Scenario = { key: string; name: string; path: string; body: (sender: string) => unknown };
const SCENARIOS: Scenario[] = [
  {
    key: "send",
    name: "POST /api/v3/send (approved utility template, priced, balance checked)",
    path: "/api/v3/send",
    body: (senderId) => ({ senderId, to: recipientNo(), template: { name: "order_update", language: "en" } }),
  },
  {
    key: "messages",
    name: "POST /api/v3/messages (provider-compatible text, open window)",
    path: "/api/v3/messages",
    body: (senderId) => ({
      senderId,
      messaging_product: "whatsapp",
      to: engagedNo().slice(1),
      type: "text",
      text: { body: "Your order shipped" },
    }),
  },
];

type Side = { name: string; base: string };

async function measureSide(
  side: Side,
  s: Scenario,
  headers: Record<string, string>,
  senders: string[],
  seconds: number,
) {
  let n = 0;
  const requests = [
    {
      method: "POST",
      path: s.path,
      headers,
      setupRequest: (r: AutocannonRequest) => ({
        ...r,
        body: JSON.stringify(s.body(senders[n++ % senders.length] ?? "")),
      }),
    },
  ];
  return toRun(await autocannon({ url: side.base, connections, duration: seconds, requests }));
}

async function main() {
  const loadBefore = loadAverages();
  console.log(`bench:send: preparing ${DB_NAME}`);
  const { token, senders } = await prepare();
  // The simulator in each server posts its signed status callbacks over HTTP to that server.
  const serve = (port: number) => ({
    ...childEnv,
    PORT: String(port),
    SIMULATOR_CALLBACK_URL: `http://127.0.0.1:${port}`,
  });
  const lean = startTs(["scripts/serve-api.ts"], serve(PORT.lean));
  const bare = startTs(["bench/send-bare-server.ts"], serve(PORT.bare));
  const leanSide = { name: "lean", base: `http://127.0.0.1:${PORT.lean}` };
  const bareSide = { name: "bare", base: `http://127.0.0.1:${PORT.bare}` };
  await waitHttp(`${leanSide.base}/api/v3/templates`);
  await waitHttp(`${bareSide.base}/`);
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const results: { s: Scenario; r: Interleaved }[] = [];
  for (const s of SCENARIOS) {
    console.log(`${s.name}: lean vs bare, ${rounds} interleaved rounds of ${duration} s…`);
    const r = await interleave(
      s.key,
      rounds,
      {
        name: "lean",
        pid: lean.pid,
        run: () => measureSide(leanSide, s, headers, senders, duration),
        warmUp: () => measureSide(leanSide, s, headers, senders, warmUpSeconds()),
      },
      {
        name: "bare",
        pid: bare.pid,
        run: () => measureSide(bareSide, s, headers, senders, duration),
        warmUp: () => measureSide(bareSide, s, headers, senders, warmUpSeconds()),
      },
    );
    results.push({ s, r });
  }
  await sleep(2_000); // let the last callbacks land
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const messages = (
    await c.query<{ n: string; dupes: string }>(
      `SELECT count(*) AS n, count(*) - count(DISTINCT "providerMessageId") AS dupes FROM "Message" WHERE "providerMessageId" IS NOT NULL`,
    )
  ).rows[0];
  const retried = (await c.query<{ n: string }>(`SELECT count(*) AS n FROM "Message" WHERE "attempts" > 1`)).rows[0];
  const callbacks = (await c.query<{ n: string }>(`SELECT count(*) AS n FROM "ProviderCallback"`)).rows[0];
  await c.end();
  smokeCheck(
    Number(messages?.n) > 0 && Number(messages?.dupes) === 0,
    `${messages?.n} sends, ${messages?.dupes} duplicate provider ids`,
  );
  smokeCheck(Number(callbacks?.n) > 0, "no status callback was stored");
  await stopChild(lean, 5_000);
  await stopChild(bare, 5_000);

  const targets: Target[] = [];
  const rows: string[] = [];
  for (const { s, r } of results) {
    const a = summary(r.a);
    const b = summary(r.b);
    rows.push(
      `| lean | ${s.name} | **${numSpread(a.rps)}** | ${numSpread(spread(r.a.map((x) => x.p50)))} | ${numSpread(a.p99)} | ${cpuCell(r.a)} | ${a.non2xx} | ${a.errors} |`,
      `| bare | ${s.name} | ${numSpread(b.rps)} | ${numSpread(spread(r.b.map((x) => x.p50)))} | ${numSpread(b.p99)} | ${cpuCell(r.b)} | ${b.non2xx} | ${b.errors} |`,
      `| **lean / bare** | ${s.name} | **${pctSpread(r.ratio)}** | | | ${cpuRatioCell(r)} | | |`,
    );
    targets.push(
      {
        what: `${s.key}: lean accepted sends/s`,
        goal: ">= 1,000/s",
        measured: numSpread(a.rps),
        met: a.rps.median >= 1000,
      },
      { what: `(g) ${s.key}: lean / bare`, goal: ">= 75%", measured: pctSpread(r.ratio), met: r.ratio.median >= 0.75 },
    );
  }
  const targetLines = reportTargets(targets);

  const heading = "## Sends (`npm run bench:send`)";
  const section = `${heading}

Command: \`npm run bench:send\` (bench/send.ts), ${machineLine(loadBefore)}.
PostgreSQL 15 on 127.0.0.1 (fresh database \`${DB_NAME}\`); autocannon, both servers and PostgreSQL share the same cores.
${connections} connections; ${SENDERS} senders of one customer (round robin), a new recipient per request, the simulator at the
upgraded tier of 1,000 messages/s per number. Accepted = HTTP 200 with a provider message id. The simulator in each
server posts its signed status callbacks (sent, delivered, read) over HTTP to that server during the run (checked and
stored; not processed here).

**Interleaved:** both servers run for the whole bench; per scenario, lean and bare take turns (A, B, A, B, ...) for
${rounds} rounds of ${duration} s after a ${warmUpSeconds()} s warm-up each. Each cell is the median over the rounds (min-max); the ratio is the
median of the per-round ratios (min-max). Server CPU ms / request: the server process's user + system time per
answered request (from /proc; it moves far less with the load than sends/s; the simulator and its in-process
callbacks run inside both servers); its ratio row is bare's over lean's. **lean** = the router on node:http (\`scripts/serve-api.ts\`): token auth,
rate limits (set out of reach), zod, the send service. **bare** = \`bench/send-bare-server.ts\`, node:http + pg written
from scratch (none of the product's code): the token kept for a minute, one statement for the sender, blacklist and window,
templates, rates and the balance kept for 2 s, one statement for the message with its conversation before the call and
one for its outcome (and an accepted event only where a destination subscribes) after it.

| server | scenario | accepted sends/s | p50 ms | p99 ms | server CPU ms / request | non-2xx | errors |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

Targets:

${targetLines.join("\n")}

After the runs: ${messages?.n ?? "?"} messages with a provider id, ${messages?.dupes ?? "?"} duplicate provider ids,
${retried?.n ?? "?"} sends retried after a simulated throughput error, ${callbacks?.n ?? "?"} signed callback batches stored.

Where the time goes: a lean send runs seven to nine SQL statements, four or five of them commits (sender,
blacklist, the window for free-form text, the sender's \`SenderPace\` count, the message INSERT with its
conversation and thread entry, the outcome UPDATE, the accepted event, \`conversation.created\` for a new contact;
the token, templates, balances and rates are cached for seconds per process), all on plain pg (\`hotRows\`,
lib/db/pool.ts); the baseline runs three. The lean server's one Node thread is saturated, so its CPU per send sets
its rate (docs/benchmarks.md "Where the CPU goes"). The server, PostgreSQL and autocannon share the 2 cores, so
absolute rates follow the machine's load; the ratio does not.
`;
  writeSectionUnlessDry(heading, section);
}

await runMain(main);

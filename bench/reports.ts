// npm run bench:reports: GET /api/v3/reports/support (each groupBy) and GET
// /api/v3/reports/support/heatmap over 1,000,000 conversations and 10,000,000 messages of one
// account (plus a second account of 100,000 conversations beside it) on the local PostgreSQL
// (database switchboard_bench_reports; bench/reports-seed.ts). The lean server
// (scripts/serve-api.ts: the router, a bearer token, zod, the report module) and a bare
// node:http + pg baseline written from scratch (bench/reports-bare-server.ts) take turns per
// scenario (lean, bare, lean, bare, ... for --rounds rounds; bench/harness.ts `interleave`),
// each round --requests requests one after the other. Targets (docs/benchmarks.md "Support
// reports"): each report's p99 under 500 ms, and at most 2x the baseline's p99. The first
// answer of each side is compared: the two must give the same figures.
//
// Flags: --reuse (keep an already seeded switchboard_bench_reports), --rounds=N (default 3),
// --requests=N per side and round (default 20; the 90- and 366-day scenarios half as many),
// --only=day,week,... (just those scenarios; writes nothing), --no-write, --smoke (2,000
// conversations, every scenario once, bench/harness.ts). BENCH_REPORTS_DB: another database
// name. BENCH_PG_URL: the server's admin URL. Ports: BENCH_PORT_BASE + 47, 48.
import pg from "pg";
import {
  BENCH_SECRETS,
  benchDatabaseUrl,
  benchPort,
  flag,
  freshDatabase,
  has,
  type Interleaved,
  interleave,
  load1,
  loadAverages,
  machineLine,
  NO_RATE_LIMITS,
  numSpread,
  type Run,
  reportTargets,
  roundsFlag,
  runMain,
  type Spread,
  sized,
  smoke,
  smokeCheck,
  spread,
  startTs,
  stopChild,
  type Target,
  waitHttp,
  writeSectionUnlessDry,
} from "./harness";
import { type Account, LAST_DAY, seedReports } from "./reports-seed";

const reuse = has("reuse");
const rounds = roundsFlag();
const REQUESTS = flag("requests", sized(20, 3));
const onlyArg = process.argv.slice(2).find((a) => a.startsWith("--only="));
const only = onlyArg ? new Set(onlyArg.slice("--only=".length).split(",")) : undefined;
const PORT = { lean: benchPort(47), bare: benchPort(48) };
const DB_NAME = process.env.BENCH_REPORTS_DB ?? "switchboard_bench_reports";
const dbUrl = benchDatabaseUrl(DB_NAME, "bench:reports");
const ACCOUNTS: Account[] = [
  {
    tag: "a",
    customerId: "cbenchreports0000000000001",
    name: "Bench reports",
    conversations: sized(1_000_000, 2_000),
    messages: 10,
  },
  {
    tag: "b",
    customerId: "cbenchreports0000000000002",
    name: "Bench reports noise",
    conversations: sized(100_000, 200),
    messages: 10,
  },
];
const MAIN = ACCOUNTS[0] as Account;
const TIME_ZONE = "Europe/Berlin";
const P99_MS = 500;
const MAX_RATIO = 2;

const childEnv: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "/tmp",
  DATABASE_URL: dbUrl,
  ...NO_RATE_LIMITS,
  LOG_LEVEL: "warn",
  NODE_ENV: "production",
  ...BENCH_SECRETS,
};
Object.assign(process.env, childEnv);

const day = (offset: number) => new Date(Date.parse(LAST_DAY) + offset * 86_400_000).toISOString().slice(0, 10);

type Scenario = { key: string; name: string; product: string; bare: string; requests: number };

/** The report of each groupBy over the 30 days up to LAST_DAY, the heatmap, the dashboard's 90 days by day and member, and the widest (366 days). */
async function scenarios(): Promise<Scenario[]> {
  // Every groupBy the product has (label: docs/reports.md "By label").
  const { SUPPORT_GROUPS } = await import("@/lib/domains/support/schemas");
  const groups: string[] = [...SUPPORT_GROUPS];
  const month = { dateFrom: day(-29), dateTo: LAST_DAY, timeZone: TIME_ZONE };
  const quarter = { dateFrom: day(-89), dateTo: LAST_DAY, timeZone: TIME_ZONE };
  const year = { dateFrom: day(-365), dateTo: LAST_DAY, timeZone: TIME_ZONE };
  const report = (key: string, groupBy: string, range: typeof month, label: string, requests = REQUESTS) => {
    const q = new URLSearchParams({ ...range, groupBy }).toString();
    return {
      key,
      name: `${label}: groupBy=${groupBy}`,
      product: `/api/v3/reports/support?${q}`,
      bare: `/support?${q}`,
      requests,
    };
  };
  const heatmap = (key: string, range: typeof month, label: string, requests = REQUESTS) => {
    const q = new URLSearchParams(range).toString();
    return {
      key,
      name: `${label}: heatmap`,
      product: `/api/v3/reports/support/heatmap?${q}`,
      bare: `/heatmap?${q}`,
      requests,
    };
  };
  const yearRequests = Math.max(1, Math.ceil(REQUESTS / 2));
  const all: Scenario[] = [
    ...groups.map((g) => report(g, g, month, "30 days")),
    heatmap("heatmap", month, "30 days"),
    // The dashboard's widest period (lib/domains/support/dashboard.ts REPORT_PERIODS).
    report("quarter-day", "day", quarter, "90 days", yearRequests),
    report("quarter-member", "member", quarter, "90 days", yearRequests),
    report("year-week", "week", year, "366 days", yearRequests),
    report("year-member", "member", year, "366 days", yearRequests),
    heatmap("year-heatmap", year, "366 days", yearRequests),
  ];
  return all.filter((s) => !only || only.has(s.key));
}

/** The database seeded at these sizes (a marker table written last); else a fresh one, seeded. */
async function prepareDatabase(): Promise<string> {
  // The seed's shape too: a database seeded before the periods carried their label sets is seeded again.
  const sizes = `labelSets;${ACCOUNTS.map((a) => `${a.tag}:${a.conversations}x${a.messages}`).join(",")}`;
  await freshDatabase(DB_NAME, dbUrl, reuse);
  let c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const seeded = await c
    .query<{ sizes: string }>("SELECT sizes FROM bench_seeded")
    .then((r) => r.rows[0]?.sizes === sizes)
    .catch(() => false);
  if (seeded) console.log(`${DB_NAME} is seeded at these sizes (--reuse)`);
  else {
    if (reuse) {
      // An interrupted seed, or one of other sizes: start again from an empty database.
      await c.end();
      await freshDatabase(DB_NAME, dbUrl, false);
      c = new pg.Client({ connectionString: dbUrl });
      await c.connect();
    }
    console.log(
      `Seeding ${ACCOUNTS.map((a) => `${a.conversations.toLocaleString("en-US")} conversations x ${a.messages} messages`).join(" + ")}…`,
    );
    await seedReports(c, ACCOUNTS, (l) => console.log(l));
    await c.query("CREATE TABLE bench_seeded (sizes text)");
    await c.query("INSERT INTO bench_seeded VALUES ($1)", [sizes]);
  }
  await c.end();
  const { issueToken } = await import("@/lib/domains/tokens/service");
  const { token } = await issueToken({ customerId: MAIN.customerId, name: "bench reports" });
  return token;
}

/** Nearest-rank percentile of latencies, ms. */
function percentile(values: number[], p: number): number {
  const s = [...values].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

/** `n` requests one after the other: each latency, the answered ones, the failed ones. */
function runOf(url: string, headers: Record<string, string>, n: number) {
  return async (): Promise<Run> => {
    const ms: number[] = [];
    let non2xx = 0;
    let errors = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      try {
        const r = await fetch(url, { headers });
        await r.arrayBuffer();
        if (r.status === 200) ms.push(performance.now() - t);
        else non2xx++;
      } catch {
        errors++;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    return {
      rps: Math.round((ms.length / seconds) * 100) / 100,
      p50: Math.round(percentile(ms, 50)),
      p99: Math.round(percentile(ms, 99)),
      non2xx,
      errors,
      requests: ms.length,
    };
  };
}

/** The first answer of a side (checked 200), its data. */
async function answer(url: string, headers: Record<string, string>): Promise<unknown> {
  const r = await fetch(url, { headers });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${url}: HTTP ${r.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: unknown }).data;
}

/** JSON with every object's keys sorted: two answers compare whatever order their fields came in. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(",")}]`
    : v !== null && typeof v === "object"
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(v);

/** The figures both sides answer (the product's answer also echoes its range), as comparable JSON. */
function figuresOf(data: unknown): string {
  const d = data as { totals?: unknown; groups?: unknown; cells?: unknown };
  return canonical(d.cells ? { cells: d.cells } : { totals: d.totals, groups: d.groups });
}

type Result = { s: Scenario; r: Interleaved; p99: Spread; ratio: Spread; loads: string[]; groups: number };

async function main() {
  const loadBefore = loadAverages();
  console.log(`Preparing ${DB_NAME} (${reuse ? "reuse if seeded" : "fresh"})…`);
  const seedStarted = Date.now();
  const token = await prepareDatabase();
  const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);
  const auth = { Authorization: `Bearer ${token}` };
  const lean = startTs(["scripts/serve-api.ts"], { ...childEnv, PORT: String(PORT.lean) });
  const bare = startTs(["bench/reports-bare-server.ts"], {
    ...childEnv,
    PORT: String(PORT.bare),
    BENCH_CUSTOMER_ID: MAIN.customerId,
  });
  await waitHttp(`http://127.0.0.1:${PORT.lean}/api/v3/openapi.json`);
  await waitHttp(`http://127.0.0.1:${PORT.bare}/`);
  const leanBase = `http://127.0.0.1:${PORT.lean}`;
  const bareBase = `http://127.0.0.1:${PORT.bare}`;

  const results: Result[] = [];
  for (const s of await scenarios()) {
    const productUrl = `${leanBase}${s.product}`;
    const bareUrl = `${bareBase}${s.bare}`;
    const [mine, theirs] = [await answer(productUrl, auth), await answer(bareUrl, {})];
    const same = figuresOf(mine) === figuresOf(theirs);
    const groups = ((mine as { groups?: unknown[]; cells?: unknown[] }).groups ?? []).length;
    smokeCheck(same, `${s.name}: the product and the baseline answer different figures`);
    if (!same && !smoke) {
      console.warn(`  product:  ${figuresOf(mine).slice(0, 600)}`);
      console.warn(`  baseline: ${figuresOf(theirs).slice(0, 600)}`);
    }
    smokeCheck(
      figuresOf(mine).includes('"conversations":') || figuresOf(mine).includes('"inbound":'),
      `${s.name}: no figures in the answer`,
    );
    console.log(`${s.name}: lean vs bare, ${rounds} interleaved rounds of ${s.requests} requests…`);
    const loads: string[] = [];
    const r = await interleave(
      s.key,
      rounds,
      {
        name: "lean",
        run: async () => {
          loads.push(load1());
          return runOf(productUrl, auth, s.requests)();
        },
        warmUp: runOf(productUrl, auth, 2),
        pid: lean.pid,
      },
      { name: "bare", run: runOf(bareUrl, {}, s.requests), warmUp: runOf(bareUrl, {}, 2), pid: bare.pid },
    );
    const ratios = r.a.map((a, i) => a.p99 / Math.max(1, r.b[i]?.p99 ?? 1));
    results.push({ s, r, p99: spread(r.a.map((x) => x.p99)), ratio: spread(ratios), loads, groups });
  }
  const plans = smoke ? [] : await explainBare(await scenarios());
  await stopChild(lean);
  await stopChild(bare);

  const targets: Target[] = [];
  for (const x of results) {
    const at = `(load ${x.loads.join(", ")})`;
    targets.push({
      what: `${x.s.name}: lean p99 ${at}`,
      goal: `< ${P99_MS} ms`,
      measured: `${numSpread(x.p99)} ms`,
      met: x.p99.median < P99_MS,
    });
    targets.push({
      what: `${x.s.name}: lean p99 / bare p99 ${at}`,
      goal: `<= ${MAX_RATIO}x`,
      measured: `${x.ratio.median.toFixed(2)}x (${x.ratio.min.toFixed(2)}-${x.ratio.max.toFixed(2)}x); bare ${numSpread(spread(x.r.b.map((b) => b.p99)))} ms`,
      met: x.ratio.median <= MAX_RATIO,
    });
  }
  const targetLines = reportTargets(targets);
  const rows = [
    "| scenario | groups | lean p50 ms | lean p99 ms | bare p50 ms | bare p99 ms | lean p99 / bare p99 | load (1 min) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      (x) =>
        `| ${x.s.name} | ${x.groups || 168} | ${numSpread(spread(x.r.a.map((a) => a.p50)))} | ${numSpread(x.p99)} | ${numSpread(spread(x.r.b.map((b) => b.p50)))} | ${numSpread(spread(x.r.b.map((b) => b.p99)))} | ${x.ratio.median.toFixed(2)}x (${x.ratio.min.toFixed(2)}-${x.ratio.max.toFixed(2)}) | ${x.loads.join(", ")} |`,
    ),
  ];
  console.log(`\n${rows.join("\n")}`);
  if (plans.length) console.log(`\nThe baseline's statements, one run each (EXPLAIN ANALYZE):\n${plans.join("\n")}`);
  const heading = "## Support reports (`npm run bench:reports`)";
  const section = [
    heading,
    "",
    // The command as run (with or without --reuse, which the next line tells too).
    `Command: \`npm run bench:reports${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\` (bench/reports.ts), ${machineLine(loadBefore)}.`,
    `PostgreSQL 15 on 127.0.0.1 (database \`${DB_NAME}\`${reuse ? ", reused" : `, seeded in ${seedSeconds} s`}); the client, both servers and PostgreSQL share the same cores.`,
    "",
    DOC_METHOD,
    "",
    `This run: ${rounds} interleaved rounds of ${REQUESTS} requests per side (${Math.ceil(REQUESTS / 2)} for the 90- and 366-day scenarios);`,
    "each cell is the median of the rounds' figures (min-max); the ratio is the median of the per-round ratios (min-max).",
    "",
    ...rows,
    "",
    "Targets:",
    "",
    ...targetLines,
    "",
    ...(plans.length
      ? ["The baseline's statements, one run each after the rounds (EXPLAIN ANALYZE):", "", ...plans, ""]
      : []),
  ].join("\n");
  if (only) console.log(`--only=${[...only].join(",")}: docs/benchmarks.md left as it was`);
  else writeSectionUnlessDry(heading, section);
}

/** EXPLAIN ANALYZE's execution time of the baseline's statement per scenario (read off the bare server's SQL). */
async function explainBare(list: Scenario[]): Promise<string[]> {
  const { reportSqlFor, HEATMAP_SQL } = await import("./reports-bare-sql");
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const out: string[] = [];
  for (const s of list) {
    const q = new URLSearchParams(s.bare.split("?")[1]);
    const sql = s.bare.startsWith("/heatmap") ? HEATMAP_SQL : reportSqlFor(q.get("groupBy") ?? "day");
    const plan = await c.query(`EXPLAIN (ANALYZE, BUFFERS OFF) ${sql}`, [
      MAIN.customerId,
      q.get("dateFrom"),
      q.get("dateTo"),
      q.get("timeZone"),
    ]);
    const time = plan.rows.map((r) => String(r["QUERY PLAN"])).find((l) => l.startsWith("Execution Time"));
    out.push(`- ${s.name}: ${time ?? "?"}`);
  }
  await c.end();
  return out;
}

// The method, as docs/benchmarks.md "Support reports" says it (the section is rewritten by each full run).
const DOC_METHOD = `\`GET /api/v3/reports/support\` for each \`groupBy\` (day, week, sender, member, label) and \`GET
/api/v3/reports/support/heatmap\` over one account with ${MAIN.conversations.toLocaleString("en-US")} conversations and ${(MAIN.conversations * MAIN.messages).toLocaleString("en-US")} thread
messages (and a second account of ${(ACCOUNTS[1]?.conversations ?? 0).toLocaleString("en-US")} conversations beside it) on the local PostgreSQL, database
\`switchboard_bench_reports\` (\`BENCH_REPORTS_DB\` for another name), created and seeded by the bench with
INSERT ... SELECT over generate_series (bench/reports-seed.ts; \`--reuse\` keeps it: a marker table written last
says it is complete and of these sizes). The seed holds the figures the product keeps per conversation
(docs/reports.md "Definitions"): a support period each (a second, reopened one for every tenth), the first and
two next responses of each answered period, CSAT surveys, SLA breaches and labels. The reports are asked in
${TIME_ZONE} for the 30 days up to the data's last day (the dashboard's default period) and for the widest range
the API allows, 366 days (every period of the account).

**lean** = \`scripts/serve-api.ts\` (the router with a bearer token, the rate limiter, zod and
\`lib/domains/support/report.ts\`). **bare** = \`bench/reports-bare-server.ts\` with the SQL of
\`bench/reports-bare-sql.ts\`: node:http + pg written from scratch, no authentication, none of the product's report
code, its connections with JIT off as the product's request connections (docs/database.md "Connections"): ONE statement per report, each family of figures (periods begun, periods closed, next responses, CSAT
answers, SLA breaches) aggregated over its own (customerId, time) index range with GROUPING SETS for the groups
and the totals, UNION ALL; the day or week key the row's position among the zone's midnights of the range
(\`width_bucket\`, a binary search per row, not a conversion to the zone's time); by label each family's range kept
with only the columns its figures read, its rows' label set ids joined to the account's sets; sender groups named after the
aggregate; a breach's member by a join with its period; the heatmap sums the inbound counts per sender and 15
minutes of UTC the product keeps (\`SupportInboundCount\`, docs/reports.md "How the heatmap counts"; read as the
other families read the figures the product keeps per conversation), each row turned into the zone's weekday and
hour (every zone's offset is a multiple of 15 minutes). Until 2026-12-01 both sides counted the inbound messages
themselves: 1,166 and 1,154 ms at p99 over 366 days (docs/benchmarks.md "The next limits"). Before measuring a scenario the bench checks that both sides answer
the same figures (a smoke run fails when they differ).

Per scenario the two servers take turns (lean, bare, lean, bare, ...) for \`--rounds\` rounds (default 3), each
round \`--requests\` requests one at a time (default 20; half as many for the 90- and 366-day scenarios), after two
warm-up requests each. Targets: each report's and the heatmap's p99 under 500 ms, and the lean p99 at most 2x the
bare p99 (the median of the per-round ratios); each printed with met / not met, the spread of the rounds and the
load average of each round. \`--smoke\` (part of \`npm test\`) seeds 2,000 conversations and runs every scenario once
with 3 requests a side.`;

await runMain(main);

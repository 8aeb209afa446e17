// npm run bench:automation (docs/benchmarks.md "Automation rules"): what automation rules cost
// the callback pipeline, on a fresh PostgreSQL database (switchboard_bench_automation), with
// the lean server (scripts/serve-api.ts) taking the signed provider callbacks and one worker
// process (scripts/worker.ts, as `npm run worker` runs it: the callback processor, the
// automation worker and the other background work) applying them.
//  (a) callback processing: 200 inbound messages a second for 60 s, one signed callback each,
//      the load taking turns by the second (--block-ms) between an account with 20 enabled rules
//      (text contains and a pattern, labels, assign, notes, a webhook, the new-conversation,
//      labels-changed, unanswered and idle triggers) and an account with no rules (the baseline),
//      so each gets 200 a second for 30 s and the machine's slow and fast phases fall on both
//      (--rounds rounds, the rules-less account's block first in odd rounds). A message's
//      processing time runs from its POST to the commit of the transaction that applied it
//      (inbound stored, conversation updated, the messages staged for the rules:
//      docs/automation.md "Where rules run"; the worker writes their jobs later): a trigger the
//      bench adds to its own database NOTIFYs each callback's message id and transaction id as
//      its "processedAt" is set, which the bench receives at commit. Judged: the messages sent
//      250 ms or more into their block (--settle-ms). Target: the rules add under 5 ms to the p99
//      (the median of the per-round differences).
//  (b) the rule jobs those messages become, drained by the automation worker in the same
//      process while the load runs: jobs/s enqueued and finished, the backlog (a staged message
//      not yet turned into its jobs counting as one) when the load
//      ends and how long it takes to drain, waited for at most --drain-wait seconds (default
//      60). Jobs still waiting then are cancelled (and counted), the worker's pass in flight
//      let finish and what it hands back cancelled too, so the next load does not share the
//      cores with them. Reported with whether the worker keeps up, and the
//      drain after the load: jobs finished a second and the worker process's CPU per job (/proc;
//      the callback processor is idle then), which the machine's load disturbs less.
//  (c) idle: 10,000 pending time triggers (the rounds' own timers topped up with rows of
//      ScheduledJob due hours to days ahead) and nothing else to do: the CPU of the server,
//      the worker and their PostgreSQL backends (/proc, as bench/idle.ts) over --idle-window
//      seconds (default 60), taking turns with the same processes while the timers are set
//      aside (their kind renamed; which goes first alternates), after one window not counted
//      (the loads' aftermath); target under 1% of one core in every window with timers.
// Each target is printed met / not met with the spread of the rounds and the load average.
// --no-write leaves docs/benchmarks.md alone; --smoke: 20 messages a second for 1 s, 200 timers,
// 1 s idle windows, one round (bench/harness.ts). Port: BENCH_PORT_BASE + 25.
import pg from "pg";
import { Pool } from "undici";
import {
  BENCH_SECRETS,
  benchDatabaseUrl,
  benchPort,
  cpuTimeMs,
  flag,
  freshDatabase,
  load1,
  loadAverages,
  machineLine,
  NO_RATE_LIMITS,
  numSpread,
  reportTargets,
  roundsFlag,
  runMain,
  type Spread,
  sized,
  sleep,
  smoke,
  smokeCheck,
  spread,
  startTs,
  stopChild,
  type Target,
  waitHttp,
  warmUpSeconds,
  writeSectionUnlessDry,
} from "./harness";

const DB_NAME = "switchboard_bench_automation";
const RATE = flag("rate", sized(200, 20));
const SECONDS = flag("duration", sized(30, 1));
const MESSAGES_PER_CONTACT = 5;
/** (a): the accounts take turns by blocks of this many milliseconds of the load. */
const BLOCK_MS = flag("block-ms", 1000);
/**
 * (a): the messages sent this early in their block are not judged: they can wait behind the
 * other account's backlog (the p50 was 75-110 ms with the cores saturated), and the rules
 * account's larger backlog then counted against the account without rules.
 */
const SETTLE_MS = flag("settle-ms", 250);
const PENDING_TIMERS = flag("timers", sized(10_000, 200));
const IDLE_WINDOW_S = flag("idle-window", sized(60, 1));
const IDLE_ROUNDS = flag("idle-rounds", sized(2, 1));
const DRAIN_WAIT_S = flag("drain-wait", sized(60, 10));
/** How long a round waits for every callback of its load to be applied before it counts the rest as lost. */
const APPLY_WAIT_MS = sized(120_000, 15_000);
const ADDED_P99_TARGET_MS = 5;
const IDLE_TARGET_PERCENT = 1;
const CONNECTIONS = sized(32, 4);
const rounds = roundsFlag();
const PORT = benchPort(25);
const APP_NAME = { server: "bench-automation-server", worker: "bench-automation-worker" };
const EVENT_KIND = "automation.event";
const TIME_KIND = "automation.time";
const INBOUND_KIND = "automation.inbound";
const PARKED_KIND = "bench.parked-timer";

const dbUrl = benchDatabaseUrl(DB_NAME);
const withAppName = (name: string) => `${dbUrl}${dbUrl.includes("?") ? "&" : "?"}application_name=${name}`;
const childEnv: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "/tmp",
  DATABASE_URL: dbUrl,
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  ...NO_RATE_LIMITS,
  ...BENCH_SECRETS,
};
Object.assign(process.env, childEnv);

// What contacts write: a third or so name something a rule looks for.
const TEXTS = [
  "Hi, is my order on its way?",
  "I want a refund for order #482913",
  "Can I get an invoice for last month?",
  "Please cancel my subscription",
  "The delivery is late again",
  "Thanks!",
  "Hello",
  "What are your opening hours?",
  "I forgot my password",
  "The item arrived broken",
  "Do you have a discount code?",
  "ok",
  "Where is order 1029384?",
  "Can I change my address?",
  "This is urgent, please call me",
  "Good morning",
  "How much is shipping to Canada?",
  "👍",
  "Is anyone there?",
  "I'd like to speak to a person",
];

const LABELS = [
  "refund",
  "billing",
  "churn-risk",
  "delivery",
  "account",
  "damaged",
  "sales",
  "urgent",
  "order",
  "VIP",
  "media",
  "new",
];

/** The 20 rules of the rules account (docs/automation.md): what a support team sets up. */
function theRules(agents: string[]): Record<string, unknown>[] {
  const [a1, a2, a3] = agents;
  const contains = (value: string) => [{ field: "message.text", op: "contains", value }];
  const inbound = { event: "message.inbound" };
  return [
    {
      name: "Refunds",
      trigger: inbound,
      conditions: contains("refund"),
      actions: [
        { type: "label", labels: ["refund"] },
        { type: "note", text: "Refund asked" },
      ],
    },
    {
      name: "Invoices",
      trigger: inbound,
      conditions: contains("invoice"),
      actions: [
        { type: "label", labels: ["billing"] },
        { type: "assign", assignee: a1 },
      ],
    },
    {
      name: "Cancellations",
      trigger: inbound,
      conditions: contains("cancel"),
      actions: [{ type: "label", labels: ["churn-risk"] }, { type: "webhook" }],
    },
    {
      name: "Delivery",
      trigger: inbound,
      conditions: contains("delivery"),
      actions: [{ type: "label", labels: ["delivery"] }],
    },
    {
      name: "Passwords",
      trigger: inbound,
      conditions: contains("password"),
      actions: [
        { type: "label", labels: ["account"] },
        { type: "note", text: "Send the reset link" },
      ],
    },
    {
      name: "Damaged goods",
      trigger: inbound,
      conditions: contains("broken"),
      actions: [
        { type: "label", labels: ["damaged"] },
        { type: "assign", assignee: a2 },
      ],
    },
    {
      name: "Discounts",
      trigger: inbound,
      conditions: contains("discount"),
      actions: [{ type: "label", labels: ["sales"] }],
    },
    {
      name: "Addresses",
      trigger: inbound,
      conditions: contains("address"),
      actions: [{ type: "label", labels: ["account"] }],
    },
    {
      name: "Urgent",
      trigger: inbound,
      conditions: contains("urgent"),
      actions: [{ type: "label", labels: ["urgent"] }],
    },
    {
      name: "Order numbers",
      trigger: inbound,
      conditions: [{ field: "message.text", op: "matches", value: "order\\s*#?\\d{5,}" }],
      actions: [{ type: "label", labels: ["order"] }],
    },
    {
      name: "VIP routing",
      trigger: inbound,
      conditions: [{ field: "conversation.label", op: "has", value: "VIP" }],
      actions: [{ type: "assign", assignee: a3 }],
    },
    {
      name: "Media",
      trigger: inbound,
      conditions: [{ field: "message.type", op: "eq", value: "image" }],
      actions: [{ type: "label", labels: ["media"] }],
    },
    {
      name: "Enterprise contacts",
      trigger: inbound,
      conditions: [{ field: "contact.field.plan", op: "eq", value: "enterprise" }],
      actions: [{ type: "label", labels: ["VIP"] }],
    },
    {
      name: "Wants a person",
      trigger: inbound,
      conditions: contains("person"),
      actions: [{ type: "assign", roundRobin: true }],
    },
    {
      name: "New conversations",
      trigger: { event: "conversation.created" },
      actions: [{ type: "label", labels: ["new"] }],
    },
    {
      name: "Welcome note",
      trigger: { event: "conversation.created" },
      actions: [{ type: "note", text: "New conversation: triaged by the rules" }],
    },
    {
      name: "Waiting 30 minutes",
      trigger: { event: "conversation.unanswered", minutes: 30 },
      actions: [{ type: "note", text: "Waiting 30 minutes for a reply" }],
    },
    { name: "Idle 4 hours", trigger: { event: "conversation.idle", minutes: 240 }, actions: [{ type: "close" }] },
    {
      name: "Urgent to the lead",
      trigger: { event: "conversation.labels_changed" },
      conditions: [{ field: "conversation.label", op: "has", value: "urgent" }],
      actions: [{ type: "assign", assignee: a1 }],
    },
    {
      name: "Refund webhook",
      trigger: { event: "conversation.labels_changed" },
      conditions: [{ field: "conversation.label", op: "has", value: "refund" }],
      actions: [{ type: "webhook" }],
    },
  ];
}

type Account = { name: string; customerId: string; token: string; sender: ProviderSender; tag: number };
type ProviderSender = { phoneNumber: string; phoneNumberId: string; wabaId: string };

const pgc = new pg.Client({ connectionString: dbUrl });
pgc.on("error", (error) => console.warn("bench database connection:", error.message));
const count = async (sql: string, params: unknown[] = []) =>
  Number((await pgc.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);

/**
 * The bench's own probe, in its own database only: each callback whose "processedAt" is set
 * NOTIFYs its first message's id and the id of the transaction that applied it (the callback
 * processor's batch), delivered when that transaction commits.
 */
async function installAppliedProbe(): Promise<void> {
  await pgc.query(`CREATE FUNCTION bench_applied() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('bench_applied', COALESCE((NEW.body::jsonb) #>> '{entry,0,changes,0,value,messages,0,id}', '')
        || ' ' || txid_current());
      RETURN NULL;
    END $$`);
  await pgc.query(`CREATE TRIGGER bench_applied AFTER UPDATE OF "processedAt" ON "ProviderCallback"
    FOR EACH ROW WHEN (OLD."processedAt" IS NULL AND NEW."processedAt" IS NOT NULL) EXECUTE FUNCTION bench_applied()`);
}

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 400)}`);
  return JSON.parse(text) as { data: Record<string, unknown> };
}

async function makeAccount(name: string, tag: number): Promise<Account> {
  const { db } = await import("@/lib/db");
  const { addSender } = await import("@/lib/domains/senders/admin");
  const { issueToken } = await import("@/lib/domains/tokens/service");
  const customer = await db.customer.create({ data: { name, plan: "pro" } });
  const sender = await addSender({
    customerId: customer.id,
    phoneNumber: `+1555010${tag}000`,
    phoneNumberId: `10${tag}000`,
    wabaId: `waba10${tag}000`,
    displayName: name,
    isDefault: true,
  });
  const { token } = await issueToken({ customerId: customer.id, name: "bench" });
  return {
    name,
    customerId: customer.id,
    token,
    tag,
    sender: { phoneNumber: sender.phoneNumber, phoneNumberId: sender.phoneNumberId ?? "", wabaId: sender.wabaId ?? "" },
  };
}

/** Three agents, the labels and the 20 rules, through the API as an account sets them up. */
async function setUpRules(account: Account): Promise<number> {
  const { db } = await import("@/lib/db");
  const agents: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const email = `agent${i}@bench-automation.test`;
    await db.user.create({
      data: { customerId: account.customerId, email, name: `Agent ${i}`, passwordHash: "!", role: "agent" },
    });
    agents.push(email);
  }
  // One after another: 32 requests at once from one account can meet its share of the
  // database connections on a loaded machine (503, "the database is too busy").
  for (const name of LABELS) await api("POST", "/api/v3/labels", account.token, { label: { name } });
  const rules = theRules(agents);
  for (const rule of rules) await api("POST", "/api/v3/automations", account.token, { rule });
  return rules.length;
}

/** Per message id: when its callback's batch committed, and that batch's transaction id. */
type Applied = Map<string, { at: number; tx: string }>;

type Side = {
  /** Messages of this account whose batch held only this account's messages (the ones judged). */
  judged: number;
  p50: number;
  p99: number;
  max: number;
  httpP99: number;
};

/**
 * One measured run: RATE callbacks a second for `seconds`, one inbound text each, the accounts
 * taking turns by the block (BLOCK_MS: all of one block's callbacks to one account, the first
 * account's block first). With two accounts, each gets RATE a second for half the run, and the
 * machine's slower and faster phases fall on both alike. A message is judged when it was sent
 * SETTLE_MS or more into its block: by its send time only, as leaving out what happened to it
 * (a batch that held both accounts' messages, at a block's edge) would leave out the slowest
 * messages, more of them the rules account's. Batches holding both are counted, not left out.
 */
async function loadRun(pool: Pool, accounts: Account[], round: number, applied: Applied, seconds: number) {
  const { signProviderBody } = await import("@/lib/domains/provider/callbacks/signature");
  const { envelopeFor } = await import("@/lib/domains/provider/simulator-callbacks");
  const { inboundTextChange, inboundWamid } = await import("@/lib/domains/provider/simulator-inbound");
  const total = Math.max(accounts.length, Math.round(RATE * seconds));
  const perBlock = Math.max(1, Math.round((RATE * BLOCK_MS) / 1000));
  const accountOf = (i: number) => accounts[Math.floor(i / perBlock) % accounts.length] as Account;
  const each = Math.ceil(total / accounts.length);
  const contacts = Math.max(1, Math.ceil(each / MESSAGES_PER_CONTACT));
  // Each message carries the time it is due to be sent (a contact's later message is newer:
  // it replaces the conversation's waiting timers, docs/automation.md "Time triggers"). Each
  // account's n-th message has the same text and contact as the other's.
  const base = Date.now();
  const seen = new Map<Account, number>();
  const bodies = Array.from({ length: total }, (_, i) => {
    const account = accountOf(i);
    const k = seen.get(account) ?? 0;
    seen.set(account, k + 1);
    const id = inboundWamid();
    const from = `+1555${account.tag}${round}${String(k % contacts).padStart(5, "0")}`;
    const at = new Date(base + (i * 1000) / RATE);
    const text = TEXTS[k % TEXTS.length] ?? "hi";
    const raw = envelopeFor([inboundTextChange(account.sender, { from, id, text, at })]);
    const settling = accounts.length > 1 && (i % perBlock) * (1000 / RATE) < SETTLE_MS;
    return { id, account, settling, raw, signature: signProviderBody(raw, BENCH_SECRETS.PROVIDER_APP_SECRET) };
  });
  applied.clear();
  const sentAt = new Map<string, number>();
  const answered = new Map<Account, number[]>(accounts.map((a) => [a, []]));
  let refused = 0;
  const t0 = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < bodies.length; i++) {
    const wait = t0 + (i * 1000) / RATE - performance.now();
    if (wait > 1) await sleep(wait);
    const b = bodies[i];
    if (!b) continue;
    const at = performance.now();
    sentAt.set(b.id, at);
    inflight.push(
      pool
        .request({
          path: "/api/provider/webhook",
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": b.signature },
          body: b.raw,
        })
        .then(async (res) => {
          await res.body.dump();
          if (res.statusCode === 200) answered.get(b.account)?.push(performance.now() - at);
          else refused += 1;
        })
        .catch(() => {
          refused += 1;
        }),
    );
  }
  await Promise.all(inflight);
  const loadEnded = performance.now();
  const until = Date.now() + APPLY_WAIT_MS;
  while (Date.now() < until && [...sentAt.keys()].some((id) => !applied.has(id))) await sleep(50);
  // The accounts each batch (transaction) applied messages of.
  const accountsOfTx = new Map<string, Set<Account>>();
  for (const b of bodies) {
    const tx = applied.get(b.id)?.tx;
    if (tx === undefined) continue;
    const set = accountsOfTx.get(tx) ?? new Set<Account>();
    set.add(b.account);
    accountsOfTx.set(tx, set);
  }
  const lags = new Map<Account, number[]>(accounts.map((a) => [a, []]));
  let inMixed = 0;
  let settling = 0;
  let appliedCount = 0;
  for (const b of bodies) {
    const done = applied.get(b.id);
    const at = sentAt.get(b.id);
    if (done === undefined || at === undefined) continue;
    appliedCount += 1;
    if ((accountsOfTx.get(done.tx)?.size ?? 0) > 1) inMixed += 1;
    if (b.settling) settling += 1;
    else lags.get(b.account)?.push(done.at - at);
  }
  const sides = new Map<Account, Side>(
    accounts.map((a) => {
      const l = lags.get(a) ?? [];
      return [
        a,
        {
          judged: l.length,
          p50: percentile(l, 50),
          p99: percentile(l, 99),
          max: Math.max(0, ...l),
          httpP99: percentile(answered.get(a) ?? [], 99),
        },
      ];
    }),
  );
  return {
    total,
    contacts,
    applied: appliedCount,
    refused,
    sides,
    /** Sent in the first SETTLE_MS of their block: not judged. */
    settling,
    /** Applied in a batch that held both accounts' messages (judged all the same when not settling). */
    inMixed,
    batches: accountsOfTx.size,
    loadSeconds: (loadEnded - t0) / 1000,
    /** From the first POST until every callback was applied (or the wait ended). */
    appliedSeconds: (performance.now() - t0) / 1000,
    load: load1(),
  };
}

/** Nearest-rank percentile, ms (one decimal). */
function percentile(values: number[], p: number): number {
  const s = [...values].sort((x, y) => x - y);
  const v = s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
  return v === undefined ? Number.NaN : Math.round(v * 10) / 10;
}

type Drain = {
  enqueued: number;
  finishedDuringLoad: number;
  enqueuedPerSecond: number;
  finishedPerSecond: number;
  backlogAtEnd: number;
  drainedAfterS: number | null;
  cancelled: number;
  keepsUp: boolean;
  runs: number;
  /** After the load (the callback processor idle): jobs finished a second, and the worker process's CPU per job. */
  drainPerSecond: number;
  cpuMsPerJob: number;
};

const eventJobs = (customerId: string, where: string) =>
  count(`SELECT count(*) AS n FROM "ScheduledJob" WHERE "customerId" = $1 AND kind = $2 AND ${where}`, [
    customerId,
    EVENT_KIND,
  ]);
/** Messages the callbacks staged for the rules whose event jobs the worker has not written yet (docs/automation.md "Where rules run"). */
const stagedMessages = (customerId: string) =>
  count(
    `SELECT coalesce(sum(jsonb_array_length(payload -> 'items')), 0) AS n FROM "ScheduledJob"
     WHERE "customerId" = $1 AND kind = $2 AND status = 'PENDING'`,
    [customerId, INBOUND_KIND],
  );

/** The rules run: how the automation worker kept up with the event jobs of a load, its wait bounded. */
async function measureDrain(
  account: Account,
  before: { all: number; finished: number },
  run: { loadSeconds: number; appliedSeconds: number },
  workerPid: number,
) {
  const finishedNow = () => eventJobs(account.customerId, `status <> 'PENDING'`);
  const allNow = () => eventJobs(account.customerId, "true");
  // A staged message not yet turned into its jobs counts as one job waiting.
  const backlogNow = async () =>
    (await eventJobs(account.customerId, `status = 'PENDING' AND "dueAt" <= (now() AT TIME ZONE 'UTC')`)) +
    (await stagedMessages(account.customerId));
  const finishedAtEnd = await finishedNow();
  const finishedDuringLoad = finishedAtEnd - before.finished;
  const backlogAtEnd = await backlogNow();
  const t0 = performance.now();
  // The drain after the load: the worker process does little else, so its CPU is the jobs'.
  const cpu0 = cpuTimeMs(workerPid);
  let left = backlogAtEnd;
  while (left > 0 && performance.now() - t0 < DRAIN_WAIT_S * 1000) {
    await sleep(500);
    left = await backlogNow();
  }
  const drainS = (performance.now() - t0) / 1000;
  const cpuDrain = cpuTimeMs(workerPid) - cpu0;
  const finishedInDrain = (await finishedNow()) - finishedAtEnd;
  const drainedAfterS = left === 0 ? drainS : null;
  // Jobs the bound left are cancelled: the next load (either account's) must not share the cores
  // with them. A staged batch's messages count as the jobs they would have become. Jobs the worker
  // holds are let finish, and what its pass then hands back is cancelled too: before, a pass in
  // flight went on into the next load.
  const cancelDue = () =>
    count(
      `WITH gone AS (UPDATE "ScheduledJob" SET status = 'CANCELLED', "lastError" = 'bench: not drained within the bound'
         WHERE "customerId" = $1 AND kind = ANY($2::text[]) AND status = 'PENDING' AND "dueAt" <= (now() AT TIME ZONE 'UTC')
           AND ("lockedUntil" IS NULL OR "lockedUntil" < (now() AT TIME ZONE 'UTC'))
         RETURNING kind, payload)
       SELECT coalesce(sum(CASE WHEN kind = $3 THEN jsonb_array_length(payload -> 'items') ELSE 1 END), 0) AS n FROM gone`,
      [account.customerId, [EVENT_KIND, INBOUND_KIND], INBOUND_KIND],
    );
  const held = () =>
    count(
      `SELECT count(*) AS n FROM "ScheduledJob" WHERE "customerId" = $1 AND status = 'PENDING'
         AND "lockedUntil" > (now() AT TIME ZONE 'UTC')`,
      [account.customerId],
    );
  let cancelled = 0;
  if (left > 0) {
    cancelled = await cancelDue();
    const until = performance.now() + 30_000;
    while ((await held()) > 0 && performance.now() < until) await sleep(200);
    if ((await held()) > 0)
      console.log("  warning: the worker still held rule jobs 30 s after the bound; they run into the next load");
    cancelled += await cancelDue();
  }
  const enqueued = (await allNow()) - before.all;
  const d: Drain = {
    enqueued,
    finishedDuringLoad,
    enqueuedPerSecond: enqueued / run.loadSeconds,
    // Finished from the load's start until its last callback was applied (when the last jobs exist).
    finishedPerSecond: finishedDuringLoad / run.appliedSeconds,
    backlogAtEnd,
    drainedAfterS,
    cancelled,
    // Keeping up: the backlog the load leaves is gone within max(5 s, a tenth of the load).
    keepsUp: drainedAfterS !== null && drainedAfterS <= Math.max(5, SECONDS * 0.1),
    runs: await count(`SELECT count(*) AS n FROM "AutomationRun" WHERE "customerId" = $1`, [account.customerId]),
    drainPerSecond: finishedInDrain / Math.max(drainS, 0.001),
    cpuMsPerJob: finishedInDrain > 0 ? cpuDrain / finishedInDrain : Number.NaN,
  };
  return d;
}

// ---- (c) idle CPU ----

/** CPU ms so far of the PostgreSQL backends of the server and the worker (a backend that ended keeps its last figure). */
async function backendsCpu(seen: Map<number, number>): Promise<Map<number, number>> {
  const out = new Map(seen);
  const rows = (
    await pgc.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1::text[]) AND pid <> pg_backend_pid()`,
      [[APP_NAME.server, APP_NAME.worker]],
    )
  ).rows;
  for (const { pid } of rows) {
    const ms = cpuTimeMs(pid);
    if (!Number.isNaN(ms)) out.set(pid, ms);
  }
  return out;
}

type IdleWindow = { percent: number; server: number; worker: number; backends: number; load: string };

/** CPU of the server, the worker and their backends over IDLE_WINDOW_S, as % of one core. */
async function idleWindow(serverPid: number, workerPid: number): Promise<IdleWindow> {
  const b0 = await backendsCpu(new Map());
  const s0 = cpuTimeMs(serverPid);
  const w0 = cpuTimeMs(workerPid);
  const t0 = performance.now();
  // Backends that start during the window are caught by looking every few seconds.
  let b1 = b0;
  while (performance.now() - t0 < IDLE_WINDOW_S * 1000) {
    await sleep(Math.min(5000, IDLE_WINDOW_S * 1000 - (performance.now() - t0)));
    b1 = await backendsCpu(b1);
  }
  const seconds = (performance.now() - t0) / 1000;
  const pct = (ms: number) => ms / 10 / seconds;
  const backendsMs = [...b1].reduce((acc, [pid, ms]) => acc + ms - (b0.get(pid) ?? ms), 0);
  const server = pct(cpuTimeMs(serverPid) - s0);
  const worker = pct(cpuTimeMs(workerPid) - w0);
  const backends = pct(backendsMs);
  return { percent: server + worker + backends, server, worker, backends, load: load1() };
}

/** Tops up the pending time triggers of the account to PENDING_TIMERS (due 1 hour to 7 days ahead); returns how many were added. */
async function topUpTimers(account: Account, ruleId: string): Promise<number> {
  const pending = await count(
    `SELECT count(*) AS n FROM "ScheduledJob" WHERE "customerId" = $1 AND kind = $2 AND status = 'PENDING'`,
    [account.customerId, TIME_KIND],
  );
  const missing = Math.max(0, PENDING_TIMERS - pending);
  if (missing === 0) return 0;
  const conversation = (
    await pgc.query<{ id: string }>(`SELECT id FROM "Conversation" WHERE "customerId" = $1 LIMIT 1`, [
      account.customerId,
    ])
  ).rows[0]?.id;
  await pgc.query(
    `INSERT INTO "ScheduledJob" (id, "customerId", kind, key, "subjectId", "dueAt", payload, status, attempts, "createdAt", "updatedAt")
     SELECT 'job_bench_' || g, $1, $2, 'bench:timer:' || g, $3,
       (now() AT TIME ZONE 'UTC') + interval '1 hour' + (g % 10080) * interval '1 minute',
       jsonb_build_object('trigger', 'conversation.unanswered', 'ruleId', $4::text, 'conversationId', $3::text,
         'anchorMessageId', 'wamid.bench.' || g, 'anchorAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
         'message', jsonb_build_object('text', 'anyone?', 'type', 'text')),
       'PENDING', 0, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
     FROM generate_series(1, $5::int) AS g`,
    [account.customerId, TIME_KIND, conversation, ruleId, missing],
  );
  return missing;
}

/** Sets the account's pending timers aside (kind renamed, the worker does not read them) or back. */
async function parkTimers(account: Account, park: boolean): Promise<void> {
  await pgc.query(`UPDATE "ScheduledJob" SET kind = $3 WHERE "customerId" = $1 AND kind = $2 AND status = 'PENDING'`, [
    account.customerId,
    park ? TIME_KIND : PARKED_KIND,
    park ? PARKED_KIND : TIME_KIND,
  ]);
  // The dead row versions go before the window: the worker's idle read is not judged on them.
  await pgc.query(`VACUUM (ANALYZE) "ScheduledJob"`);
}

// ---- main ----

type Run = Awaited<ReturnType<typeof loadRun>>;
type Round = { run: Run; plain: Side; rules: Side; drain: Drain; rulesFirst: boolean };

const started = performance.now();
/** In a smoke run, where the seconds go (it has a time limit). */
const phase = (what: string) => {
  if (smoke) console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s: ${what}`);
};

async function main() {
  const loadBefore = loadAverages();
  await freshDatabase(DB_NAME, dbUrl);
  await pgc.connect();
  await installAppliedProbe();
  phase("database migrated");
  // The server and the worker start while the accounts are made.
  const server = startTs(["scripts/serve-api.ts"], {
    ...childEnv,
    PORT: String(PORT),
    DATABASE_URL: withAppName(APP_NAME.server),
  });
  const worker = startTs(["scripts/worker.ts"], { ...childEnv, DATABASE_URL: withAppName(APP_NAME.worker) });
  const plain = await makeAccount("Bench automation: no rules", 1);
  const ruled = await makeAccount("Bench automation: 20 rules", 2);
  await waitHttp(`http://127.0.0.1:${PORT}/api/health`);
  phase("server up");
  const ruleCount = await setUpRules(ruled);
  console.log(`${ruled.name}: ${ruleCount} rules, ${LABELS.length} labels, 3 agents; ${plain.name}: none`);

  const applied: Applied = new Map();
  const listener = new pg.Client({ connectionString: dbUrl });
  await listener.connect();
  listener.on("notification", (n) => {
    const [id, tx] = (n.payload ?? "").split(" ");
    if (id && tx) applied.set(id, { at: performance.now(), tx });
  });
  await listener.query("LISTEN bench_applied");
  const pool = new Pool(`http://127.0.0.1:${PORT}`, { connections: CONNECTIONS, pipelining: 1 });
  // The worker's start-up (its LISTEN connections) before the first measured callback.
  await sleep(sized(3000, 500));
  const sideOf = (run: Run, account: Account) => run.sides.get(account) as Side;
  const eventJobsNow = async () => ({
    all: await eventJobs(ruled.customerId, "true"),
    finished: await eventJobs(ruled.customerId, `status <> 'PENDING'`),
  });
  /** (b)'s rates are per second of the whole run (both accounts' blocks: the worker runs in either). */
  const rulesShare = (run: Run) => ({ loadSeconds: run.loadSeconds, appliedSeconds: run.appliedSeconds });
  if (!smoke) {
    // A warm-up of a few seconds a side (the statements of each kind prepared, the code paths
    // compiled); the rule jobs it leaves are drained (bounded) before the first round.
    const before = await eventJobsNow();
    const w = await loadRun(pool, [plain, ruled], 0, applied, 2 * warmUpSeconds());
    console.log(`  warm-up: rule jobs ${drainLine(await measureDrain(ruled, before, rulesShare(w), worker.pid ?? 0))}`);
  }

  const results: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Which account has the first block alternates (no rules first in odd rounds, the rules
    // first in even ones). The rules' backlog is drained, or cancelled, before the next round.
    const rulesFirst = round % 2 === 0;
    const before = await eventJobsNow();
    const run = await loadRun(pool, rulesFirst ? [ruled, plain] : [plain, ruled], round, applied, 2 * SECONDS);
    const drain = await measureDrain(ruled, before, rulesShare(run), worker.pid ?? 0);
    const p = sideOf(run, plain);
    const r = sideOf(run, ruled);
    smokeCheck(
      run.refused === 0 && run.applied === run.total,
      `round ${round}: ${run.refused} callbacks refused, ${run.applied} of ${run.total} applied`,
    );
    smokeCheck(p.judged > 0 && r.judged > 0, `round ${round}: judged ${p.judged} without rules, ${r.judged} with`);
    smokeCheck(drain.runs > 0, `round ${round}: the rules ran ${drain.runs} times`);
    results.push({ run, plain: p, rules: r, drain, rulesFirst });
    console.log(
      `  round ${round}/${rounds} (load ${run.load}; ${rulesFirst ? "rules" : "no rules"} first): applied p50/p99 no rules ${p.p50}/${p.p99} ms, 20 rules ${r.p50}/${r.p99} ms: +${(r.p99 - p.p99).toFixed(1)} ms at p99 (judged ${p.judged} / ${r.judged}; left out: ${run.settling} sent in a block's first ${SETTLE_MS} ms; ${run.inMixed} applied in batches holding both accounts, of ${run.batches} batches; HTTP answer p99 ${p.httpP99} / ${r.httpP99} ms)`,
    );
    console.log(`    rule jobs: ${drainLine(drain)}`);
  }
  await pool.close();
  await listener.end();

  // (c) idle with the pending timers, against the same processes with them set aside.
  const timerRule = (
    await pgc.query<{ id: string }>(
      `SELECT id FROM "AutomationRule" WHERE "customerId" = $1 AND "triggerEvent" = 'conversation.unanswered'`,
      [ruled.customerId],
    )
  ).rows[0]?.id;
  const topped = await topUpTimers(ruled, timerRule ?? "");
  const pendingTimers = await count(
    `SELECT count(*) AS n FROM "ScheduledJob" WHERE "customerId" = $1 AND kind = $2 AND status = 'PENDING'`,
    [ruled.customerId, TIME_KIND],
  );
  const fromRounds = pendingTimers - topped;
  smokeCheck(pendingTimers >= PENDING_TIMERS, `${pendingTimers} pending timers, ${PENDING_TIMERS} wanted`);
  // Whatever the rounds left to run (cancelled above, or still in flight) ends before the windows.
  await sleep(sized(10_000, 200));
  await pgc.query(`VACUUM (ANALYZE) "ScheduledJob"`);
  // One window not counted first: the loads' aftermath (the processes' collections, PostgreSQL's
  // writes of what the loads dirtied) took 0.5% of a core in the server alone in the first window
  // after them, which the timers cannot cause (docs/benchmarks.md "The next limits").
  const settle = await idleWindow(server.pid ?? 0, worker.pid ?? 0);
  console.log(`  idle: a window not counted first, while the loads' aftermath settles: ${idleLine(settle)}`);
  const idle: { timers: IdleWindow; none: IdleWindow }[] = [];
  for (let i = 1; i <= IDLE_ROUNDS; i++) {
    // The order alternates (timers first in odd windows, set aside first in even ones), as the loads' does.
    const measure = async (parked: boolean) => {
      await parkTimers(ruled, parked);
      return idleWindow(server.pid ?? 0, worker.pid ?? 0);
    };
    const first = await measure(i % 2 === 0);
    const second = await measure(i % 2 === 1);
    await parkTimers(ruled, false);
    const [timers, none] = i % 2 === 0 ? [second, first] : [first, second];
    idle.push({ timers, none });
    console.log(
      `  idle ${i}/${IDLE_ROUNDS}: ${pendingTimers.toLocaleString("en-US")} timers pending ${idleLine(timers)}; none pending ${idleLine(none)}`,
    );
  }
  smokeCheck(server.exitCode === null && worker.exitCode === null, "the server or the worker exited");
  await stopChild(server, sized(10_000, 2_000));
  await stopChild(worker, sized(10_000, 2_000));
  await pgc.end();
  const { db } = await import("@/lib/db");
  await db.$disconnect();

  // ---- targets ----
  const added = spread(results.map((x) => x.rules.p99 - x.plain.p99));
  const p99Plain = spread(results.map((x) => x.plain.p99));
  const p99Rules = spread(results.map((x) => x.rules.p99));
  const loads = results.map((x) => x.run.load).join(", ");
  const idleTimers = spread(idle.map((w) => w.timers.percent));
  const idleNone = spread(idle.map((w) => w.none.percent));
  const targets: Target[] = [
    {
      what: `(a) ${RATE} inbound messages/s, ${SECONDS} s to each account in turns of ${BLOCK_MS / 1000} s: what 20 rules add to the callback's p99 (POST to applied; load ${loads})`,
      goal: `< ${ADDED_P99_TARGET_MS} ms`,
      measured: `${fmtSpread(added)} ms (median of ${rounds} rounds, min-max); p99 with 20 rules ${numSpread(p99Rules)} ms, with none ${numSpread(p99Plain)} ms`,
      met: added.median < ADDED_P99_TARGET_MS,
    },
    {
      what: `(c) idle with ${pendingTimers.toLocaleString("en-US")} pending time triggers: server + worker + their PostgreSQL backends (load ${idle.map((w) => w.timers.load).join(", ")})`,
      goal: `< ${IDLE_TARGET_PERCENT}% of one core in every window`,
      measured: `${pctOf(idleTimers)} of one core over ${IDLE_WINDOW_S} s (median, min-max); with the timers set aside ${pctOf(idleNone)}`,
      met: idleTimers.max < IDLE_TARGET_PERCENT,
    },
  ];
  const keepsUp = results.every((x) => x.drain.keepsUp);
  const drainVerdict = `(b) the automation worker ${keepsUp ? "keeps up" : "does not keep up"} with the rule jobs of ${RATE} messages/s: finished ${fmtSpread(spread(results.map((x) => x.drain.finishedPerSecond)))} jobs/s while ${fmtSpread(spread(results.map((x) => x.drain.enqueuedPerSecond)))} a second were enqueued; after the load ${fmtSpread(spread(results.map((x) => x.drain.drainPerSecond)))} jobs/s at ${fmtSpread(spread(results.map((x) => x.drain.cpuMsPerJob)))} ms of the worker process's CPU a job`;
  console.log(`\n${drainVerdict}`);
  const targetLines = reportTargets(targets);

  const rows = [
    "| round | load (1 min) | first block | no rules: applied p50 / p99 ms | 20 rules: applied p50 / p99 ms | added at p99 | messages judged, none / rules | HTTP answer p99, none / rules | rule jobs |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ...results.map(
      (x, i) =>
        `| ${i + 1} | ${x.run.load} | ${x.rulesFirst ? "20 rules" : "no rules"} | ${x.plain.p50} / ${x.plain.p99} | ${x.rules.p50} / ${x.rules.p99} | ${(x.rules.p99 - x.plain.p99).toFixed(1)} ms | ${x.plain.judged.toLocaleString("en-US")} / ${x.rules.judged.toLocaleString("en-US")} (${x.run.settling} in a block's first ${SETTLE_MS} ms, ${x.run.inMixed} in mixed batches) | ${x.plain.httpP99} / ${x.rules.httpP99} ms | ${drainLine(x.drain)} |`,
    ),
  ];
  const idleRows = [
    "| window | load (1 min) | timers pending: all (server, worker, backends) | set aside: all (server, worker, backends) |",
    "| --- | --- | ---: | ---: |",
    ...idle.map(
      (w, i) => `| ${i + 1} | ${w.timers.load}, ${w.none.load} | ${idleCell(w.timers)} | ${idleCell(w.none)} |`,
    ),
  ];
  console.log(`\n${rows.join("\n")}\n\n${idleRows.join("\n")}`);
  const heading = "## Automation rules (`npm run bench:automation`)";
  const section = [
    heading,
    "",
    `Command: \`npm run bench:automation\` (bench/automation.ts), ${machineLine(loadBefore)}.`,
    "The machine is shared: other sessions' tests and benches ran beside this one, so read the differences and",
    "the worker's rates for what they say, and the absolute figures as upper bounds.",
    "",
    DOC_METHOD,
    "",
    `This run: ${rounds} rounds of ${Math.round(RATE * SECONDS).toLocaleString("en-US")} callbacks a side (${Math.round((RATE * SECONDS) / MESSAGES_PER_CONTACT).toLocaleString("en-US")} contacts writing ${MESSAGES_PER_CONTACT} messages each),`,
    `the drain waited for at most ${DRAIN_WAIT_S} s; ${IDLE_ROUNDS} idle windows of ${IDLE_WINDOW_S} s a side with ${pendingTimers.toLocaleString("en-US")} pending timers`,
    `(${fromRounds.toLocaleString("en-US")} written by the rounds' messages, ${topped.toLocaleString("en-US")} added).`,
    "",
    ...rows,
    "",
    ...idleRows,
    "",
    "Targets:",
    "",
    ...targetLines,
    "",
    `- ${drainVerdict}.`,
    "",
  ].join("\n");
  writeSectionUnlessDry(heading, section);
}

const fmtSpread = (s: Spread) => `${s.median.toFixed(1)} (${s.min.toFixed(1)}-${s.max.toFixed(1)})`;
const pctOf = (s: Spread) => `${s.median.toFixed(2)}% (${s.min.toFixed(2)}-${s.max.toFixed(2)}%)`;
const idleLine = (w: IdleWindow) =>
  `${w.percent.toFixed(2)}% (server ${w.server.toFixed(2)}%, worker ${w.worker.toFixed(2)}%, backends ${w.backends.toFixed(2)}%; load ${w.load})`;
const idleCell = (w: IdleWindow) =>
  `${w.percent.toFixed(2)}% (${w.server.toFixed(2)}, ${w.worker.toFixed(2)}, ${w.backends.toFixed(2)})`;
function drainLine(d: Drain): string {
  const end =
    d.drainedAfterS !== null
      ? `drained ${d.drainedAfterS.toFixed(1)} s after the load`
      : `${d.cancelled.toLocaleString("en-US")} still waiting after ${DRAIN_WAIT_S} s (cancelled)`;
  const after = `after it ${d.drainPerSecond.toFixed(0)}/s at ${d.cpuMsPerJob.toFixed(1)} ms of worker CPU a job`;
  return `${d.enqueued.toLocaleString("en-US")} enqueued (${d.enqueuedPerSecond.toFixed(0)}/s), ${d.finishedPerSecond.toFixed(0)}/s finished during the load, ${d.backlogAtEnd.toLocaleString("en-US")} waiting when it ended, ${end} (${after}): ${d.keepsUp ? "keeps up" : "falls behind"}`;
}

// The method, as docs/benchmarks.md "Automation rules" says it (the section is rewritten by each full run).
const DOC_METHOD = `Two accounts on one fresh PostgreSQL database (\`switchboard_bench_automation\`): one with no rules (the
baseline) and one with 20 enabled rules set up through the API (\`bench/automation.ts\` \`theRules\`): ten
\`message.inbound\` rules on \`message.text contains\` (refund, invoice, cancel, ...) and one on a pattern, which
label, assign, add a note or send the \`automation.triggered\` webhook; rules on a conversation label, the message
type and a contact field; a round-robin assignment; two \`conversation.created\` rules; two
\`conversation.labels_changed\` rules (the rules' own labels trigger them); \`conversation.unanswered\` after 30
minutes and \`conversation.idle\` after 4 hours (timers in \`ScheduledJob\`). A third of the messages name
something a rule looks for. The lean server (\`scripts/serve-api.ts\`) takes the signed provider callbacks, one
inbound text each, paced at ${RATE} a second; one worker process (\`scripts/worker.ts\`, as \`npm
run worker\`: the callback processor, the automation worker and the other background work) applies them.

**(a) Callback processing**: a message's time from its POST to the commit of the transaction that applied it
(inbound stored, conversation updated, the new messages staged for the rules; the worker writes their jobs and
timers after the commit: docs/automation.md "Where rules run"), received by the bench as a NOTIFY from
a trigger it adds to its own database on \`ProviderCallback."processedAt"\`, with the id of that transaction (the
callback processor's batch). Each round is one load of ${2 * SECONDS} s in which the accounts take turns by the
second (\`--block-ms\`, default 1000): every callback of a block goes to one account, so each account gets ${RATE} a
second for ${SECONDS} s and the machine's slower and faster phases fall on both alike. A
message is judged when it was sent ${SETTLE_MS} ms or more into its block (\`--settle-ms\`): earlier ones can wait
behind the other account's backlog (the p50 was 75-110 ms with the cores saturated), and the rules account's larger
backlog then counted against the other. Messages are chosen by their send time only: a batch at a block's edge can
hold both accounts' messages (counted in the table), and leaving those out would leave out the slowest messages,
more of them the rules account's. \`--rounds\` rounds (default 3) follow a warm-up run, the no-rules account's block
first in odd rounds and the rules account's in even ones; what the rules add is the per-round difference of the two
accounts' p99s, its median judged (target under ${ADDED_P99_TARGET_MS} ms). **What this difference holds**: the rules'
cost inside the callback's transaction (the staging, docs/automation.md "Where rules run"), and whatever the rules
make the callbacks wait for. The automation worker runs in the same process, but while the callback processor is
saturated it waits for a quiet moment (at most 5 s, then one job), and what it then does falls on both accounts'
messages alike, so it drops out of the difference; (b) shows how little of it ran during the load. Until
2026-12-01 the accounts took turns by whole ${SECONDS}-s loads, the worker's backlog drained between them, and a
round's difference swung by tens of milliseconds with the machine's phases.
**(b) The rule jobs**: the event jobs the rules account's messages become (\`message.inbound\`,
\`conversation.created\`, \`conversation.labels_changed\`), finished per second during the load, the backlog when
the load ends (a staged message the worker has not turned into its jobs yet counting as one) and the time to drain it, waited for at most \`--drain-wait\` seconds (default 60); jobs still
waiting then are cancelled (and counted), the worker's pass in flight let finish and what it hands back cancelled too, so that the next load does not share the cores with them.
It keeps up when the backlog is gone within max(5 s, a tenth of the load's length). The drain after the load
is also given as jobs finished a second and the worker process's CPU time (\`/proc\`) per job finished, the
callback processor being idle then: what a job costs, which the machine's load disturbs less than the p99.
**(c) Idle**: ${PENDING_TIMERS.toLocaleString("en-US")} pending time triggers (the rounds' own timers, topped up with
\`ScheduledJob\` rows due 1 hour to 7 days ahead), the load over; the CPU time (\`/proc\`, user + system) of the
server, the worker and their PostgreSQL backends (by \`application_name\`) over windows of \`--idle-window\` seconds
(default 60), taking turns with the same processes while the timers are set aside (their kind renamed; VACUUM
after each change), the timers first in odd windows and set aside first in even ones, after one window not counted
(in the first window after the loads, their aftermath took 0.5% of a core in the server alone). Target: under ${IDLE_TARGET_PERCENT}% of one core in every window with the timers.
\`--smoke\` (part of \`npm test\`): 20 messages a second for 1 s, 200 timers, windows of 1 s, one round.`;

await runMain(main);

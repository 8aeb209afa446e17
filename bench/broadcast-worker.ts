// The real side of bench/broadcast.ts: the service's background work as `npm run worker`
// runs it (lib/background.ts: the broadcast dispatcher, the callback processor, the delivery
// worker...) for the bench customer, the built-in simulator in this process (its signed
// status callbacks go into this process's provider endpoint handler, and the callback
// processor applies them), plus a small control endpoint the bench drives:
//   POST /start {customerId, senderId, bookIds, filters?, maxPerSecond?} -> {uid, startMs}
//     creates the broadcast and starts it with the service (the recipients made by its
//     INSERT ... SELECT); the dispatcher of this process sends it;
//   GET /calls?pnid=ID -> the times the simulator accepted this number's messages since the
//     last read (the provider's view of the pacing).
// PORT, DATABASE_URL, BENCH_CUSTOMER (the customer whose broadcasts this worker sends).
import http from "node:http";
import pg from "pg";
import { startBackgroundWork } from "@/lib/background";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { createBroadcast, startBroadcast } from "@/lib/domains/broadcasts/service";
import { getProvider } from "@/lib/domains/provider/client";

export type StartRequest = {
  customerId: string;
  senderId: string;
  bookIds: string[];
  filters?: { field: string; op: "eq"; value: string }[];
  maxPerSecond?: number;
};

/** Creates and starts a broadcast through the service; the time of the start (recipients made). */
export async function createAndStart(r: StartRequest): Promise<{ uid: string; startMs: number }> {
  const p = systemPrincipal(r.customerId);
  const sender = await db.sender.findUniqueOrThrow({ where: { id: r.senderId } });
  const row = await createBroadcast(p, sender, {
    name: `Bench ${new Date().toISOString()}`,
    template: { name: "order_update", language: "en" },
    audience: { contactBookUids: r.bookIds, filters: r.filters ?? [], phoneNumbers: [] },
    variables: { body: [{ source: "name" }], header: [] },
    scheduledAt: null,
    maxPerSecond: r.maxPerSecond ?? null,
  });
  const t0 = performance.now();
  await startBroadcast(p, sender, row.id, null);
  return { uid: row.id, startMs: performance.now() - t0 };
}

/** When the provider accepted each message of this process, per phone number id (ms since the epoch). */
const calls = new Map<string, number[]>();

/** Records the time of every accepted provider call (the pacing scenario reads them: GET /calls?pnid=). */
export function recordCalls(): void {
  const provider = getProvider();
  const send = provider.sendMessage.bind(provider);
  provider.sendMessage = async (sender, payload, hints) => {
    const outcome = await send(sender, payload, hints);
    if (outcome.ok) {
      const list = calls.get(sender.phoneNumberId) ?? [];
      list.push(Date.now());
      calls.set(sender.phoneNumberId, list);
    }
    return outcome;
  };
}

/** The bench's control endpoint: POST /start, GET /calls?pnid=, answered with JSON. */
export function controlServer(port: number, start: (r: StartRequest) => Promise<unknown>): void {
  http
    .createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        try {
          const url = new URL(req.url ?? "/", "http://localhost");
          if (url.pathname === "/calls") {
            const pnid = url.searchParams.get("pnid") ?? "";
            const times = calls.get(pnid) ?? [];
            calls.set(pnid, []);
            res.writeHead(200, { "Content-Type": "application/json" });
            res.end(JSON.stringify(times));
            return;
          }
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as StartRequest;
          const out = await start(body);
          res.writeHead(200, { "Content-Type": "application/json" });
          res.end(JSON.stringify(out));
        } catch (error) {
          res.writeHead(500, { "Content-Type": "application/json" });
          res.end(JSON.stringify({ error: String((error as Error)?.stack ?? error) }));
        }
      });
    })
    .listen(port, "127.0.0.1");
}

/**
 * BENCH_SQL_STATS=1: counts every statement that reaches pg (by its first 160 characters)
 * with its summed wall time, printed to stderr on SIGTERM: where a broadcast's round trips go.
 */
export function sqlStats(): () => void {
  const stats = new Map<string, { n: number; ms: number }>();
  const original = pg.Client.prototype.query;
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this times and passes through.
  (pg.Client.prototype as any).query = function timed(this: pg.Client, ...args: any[]) {
    const config = args[0];
    const text = typeof config === "string" ? config : (config?.text as string | undefined);
    // biome-ignore lint/suspicious/noExplicitAny: see above
    if (!text) return (original as any).apply(this, args);
    const key = text.replace(/\s+/g, " ").slice(0, 160);
    const t = performance.now();
    const done = () => {
      const s = stats.get(key) ?? { n: 0, ms: 0 };
      s.n += 1;
      s.ms += performance.now() - t;
      stats.set(key, s);
    };
    // pg-pool passes a callback (pool.query); a client's own caller gets a promise.
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const cb = args[last];
      // biome-ignore lint/suspicious/noExplicitAny: see above
      args[last] = (...r: any[]) => {
        done();
        return cb(...r);
      };
    }
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const result = (original as any).apply(this, args);
    if (result && typeof result.then === "function") result.then(done, done);
    return result;
  };
  return () => {
    const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 90);
    for (const [k, v] of rows) console.error(`${String(v.n).padStart(7)} ${v.ms.toFixed(0).padStart(8)} ms  ${k}`);
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const printStats = process.env.BENCH_SQL_STATS ? sqlStats() : undefined;
  process.on("SIGTERM", () => printStats?.());
  const customer = process.env.BENCH_CUSTOMER ?? "";
  const background = await startBackgroundWork({ customerIds: [customer] });
  recordCalls();
  controlServer(Number(process.env.PORT), createAndStart);
  process.on("SIGTERM", () => void background.stop().then(() => process.exit(0)));
  console.log("bench broadcast worker ready");
}

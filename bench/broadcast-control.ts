// What both sides of bench/broadcast.ts (b) share, none of it the product's code: the control
// endpoint the bench drives, the provider's view of the calls (when the simulator counted
// each, and its refusals), and the SQL statistics of BENCH_SQL_STATS=1.
//   POST /start {customerId, senderId, bookIds, filters?} -> {uid, startMs}
//   GET /calls?pnid=ID -> this number's calls since the last read (bench/pacing.ts)
//   POST /api/provider/webhook -> the side's own handling of the simulator's signed status
//     callbacks (SIMULATOR_CALLBACK_URL points here: the provider posts over HTTP to both sides)
import http from "node:http";
import pg from "pg";
import { getSimulator } from "@/lib/domains/provider/client";
import type { ProviderCall } from "./pacing";

export type StartRequest = {
  customerId: string;
  senderId: string;
  bookIds: string[];
  filters?: { field: string; op: "eq"; value: string }[];
  maxPerSecond?: number;
};

export type ControlRoutes = {
  start: (r: StartRequest) => Promise<{ uid: string; startMs: number }>;
  /** A provider callback's raw body and signature header -> the HTTP status answered. */
  providerCallback: (raw: Buffer, signature: string | null) => Promise<number>;
};

/** Every call the simulator counted, per phone number id: when (ms since the epoch) and any refusal. */
const calls = new Map<string, ProviderCall[]>();

/**
 * Records every call the simulator (the provider, in this process) counts against a number's
 * limits, at the moment it counts it, and its refusal if any.
 */
export function recordCalls(): void {
  const limits = getSimulator()?.limits;
  if (!limits) throw new Error("bench:broadcast runs against the built-in simulator");
  const check = limits.check.bind(limits);
  limits.check = (phoneNumberId, recipient, options, now = limits.now()) => {
    const verdict = check(phoneNumberId, recipient, options, now);
    const list = calls.get(phoneNumberId) ?? [];
    // The provider's codes: 130429 throughput, 131056 pair rate (lib/domains/provider/error-codes.ts).
    const refusedWith = { ok: undefined, throughput: 130429, pair: 131056 }[verdict];
    list.push(refusedWith === undefined ? { at: now } : { at: now, refusedWith });
    calls.set(phoneNumberId, list);
    return verdict;
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The bench's control endpoint on 127.0.0.1:`port`. */
export function controlServer(port: number, routes: ControlRoutes): http.Server {
  return http
    .createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        try {
          const url = new URL(req.url ?? "/", "http://localhost");
          const raw = Buffer.concat(chunks);
          if (url.pathname === "/calls") {
            const pnid = url.searchParams.get("pnid") ?? "";
            const list = calls.get(pnid) ?? [];
            calls.set(pnid, []);
            return json(res, 200, list);
          }
          if (url.pathname === "/api/provider/webhook") {
            const signature = req.headers["x-hub-signature-256"];
            const status = await routes.providerCallback(raw, typeof signature === "string" ? signature : null);
            res.writeHead(status, { "Content-Type": "text/plain" });
            res.end(status === 200 ? "EVENT_RECEIVED" : "refused");
            return;
          }
          if (url.pathname === "/start") return json(res, 200, await routes.start(JSON.parse(raw.toString("utf8"))));
          json(res, 404, { error: `no ${url.pathname}` });
        } catch (error) {
          json(res, 500, { error: String((error as Error)?.stack ?? error) });
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

// The bare baseline for bench/send.ts: node:http + pg running the SAME
// SQL statements a send runs, and nothing else (no router, no token parsing, no zod, no
// Prisma, no service code). At start it sends once per (route, sender) through the real
// router in this process and records, per request, every statement that reached `pg`
// (text, parameters, options) and the provider call in between. Each later request
// replays that recording with its own recipient, fresh ids and timestamps: the statements
// before the provider call, the built-in simulator's sendMessage (the same provider work,
// whose status callbacks land in the same in-process handler as the lean server's), then
// the statements after it, and answers the recorded response body with the new ids.
// PORT, DATABASE_URL, BENCH_TOKEN, BENCH_SENDERS (comma-separated E.164), BENCH_CAPTURE_LOG=1
// prints the recorded statements.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { handleApiRequest } from "@/lib/api/router";
import { getDb } from "@/lib/db";
import { getProvider } from "@/lib/domains/provider/client";
import type { ProviderMessagePayload, ProviderSender, SendHints } from "@/lib/domains/provider/types";

type Statement = { config: Record<string, unknown>; values: unknown[] };
type ProviderCall = { sender: ProviderSender; payload: ProviderMessagePayload; hints?: SendHints; messageId: string };
type Recording = { before: Statement[]; call?: ProviderCall; after: Statement[]; body: string; digits: string };

const recorder = new AsyncLocalStorage<{ on: boolean; inProvider?: boolean; rec: Recording }>();
const originalQuery = pg.Client.prototype.query;
// biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this records and passes through.
(pg.Client.prototype as any).query = function record(this: pg.Client, ...args: any[]) {
  const store = recorder.getStore();
  const config = args[0];
  if (store?.on && !store.inProvider && config && typeof config === "object" && "text" in config) {
    const values = (config.values ?? args[1] ?? []) as unknown[];
    (store.rec.call ? store.rec.after : store.rec.before).push({ config: { ...config }, values: [...values] });
  }
  // biome-ignore lint/suspicious/noExplicitAny: see above
  return (originalQuery as any).apply(this, args);
};

const provider = getProvider();
const originalSend = provider.sendMessage.bind(provider);
provider.sendMessage = async (sender, payload, hints) => {
  // The provider's own statements (the simulator's window look-up) are provider work: not recorded.
  const store = recorder.getStore();
  if (store) store.inProvider = true;
  const result = await originalSend(sender, payload, hints);
  if (store) store.inProvider = false;
  if (store?.on && !store.rec.call)
    store.rec.call = { sender, payload, hints, messageId: result.ok ? result.messageId : "" };
  return result;
};

const token = process.env.BENCH_TOKEN ?? "";
const senders = (process.env.BENCH_SENDERS ?? "").split(",").filter(Boolean);
const engaged = (i: number) => `1416${1_000_000 + 19_900 + i}`; // contacts with an open window (bench/send.ts)
const bodies: Record<string, (senderId: string, i: number) => { body: unknown; digits: string }> = {
  "/api/v3/send": (senderId, i) => {
    const digits = `1415999${String(i).padStart(4, "0")}`;
    return { body: { senderId, to: `+${digits}`, template: { name: "order_update", language: "en" } }, digits };
  },
  "/api/v3/messages": (senderId, i) => {
    const digits = engaged(i);
    const body = {
      senderId,
      messaging_product: "whatsapp",
      to: digits,
      type: "text",
      text: { body: "Your order shipped" },
    };
    return { body, digits };
  },
};

async function capture(path: string, senderId: string, i: number): Promise<Recording> {
  const { body, digits } = bodies[path]?.(senderId, i) ?? { body: {}, digits: "" };
  const rec: Recording = { before: [], after: [], body: "", digits };
  const store = { on: true, rec };
  const response = await recorder.run(store, () =>
    handleApiRequest(
      new Request(`http://127.0.0.1${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      { clientIp: "127.0.0.1" },
    ),
  );
  rec.body = await response.text();
  store.on = false;
  if (response.status !== 200) throw new Error(`capture ${path}: HTTP ${response.status} ${rec.body.slice(0, 300)}`);
  return rec;
}

// Fresh ids where the recording generated them (msg_, conv_, evt_... + 24 hex), timestamps now.
const GENERATED = /\b([a-z]+)_[0-9a-f]{24}\b/g;
const ISO = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b/g;
function substitute(
  text: string,
  swap: Map<string, string>,
  literal: Map<string, string>,
  digits: [string, string],
  nowIso: string,
): string {
  let out = text.replace(GENERATED, (old, prefix: string) => {
    let fresh = swap.get(old);
    if (!fresh) {
      fresh = `${prefix}_${randomBytes(12).toString("hex")}`;
      swap.set(old, fresh);
    }
    return fresh;
  });
  for (const [old, fresh] of literal) out = out.replaceAll(old, fresh);
  out = out.replaceAll(digits[0], digits[1]).replace(ISO, nowIso);
  return out;
}
const subValues = (values: unknown[], s: (t: string) => string) =>
  values.map((v) => (typeof v === "string" ? s(v) : v));

let pool: pg.Pool;
async function replay(rec: Recording, digits: string): Promise<string> {
  const swap = new Map<string, string>();
  const literal = new Map<string, string>();
  const nowIso = new Date().toISOString();
  const s = (t: string) => substitute(t, swap, literal, [rec.digits, digits], nowIso);
  const run = (st: Statement) => pool.query({ ...st.config, values: subValues(st.values, s) } as pg.QueryConfig);
  for (const st of rec.before) await run(st);
  if (rec.call) {
    const payload = JSON.parse(s(JSON.stringify(rec.call.payload))) as ProviderMessagePayload;
    const result = await provider.sendMessage(rec.call.sender, payload, rec.call.hints);
    if (result.ok) literal.set(rec.call.messageId, result.messageId);
  }
  for (const st of rec.after) await run(st);
  return s(rec.body);
}

await getDb();
const recordings = new Map<string, Recording>();
for (const path of Object.keys(bodies))
  for (const [i, senderId] of senders.entries()) {
    // Two warm-up sends fill the per-process caches (templates, balance, rates) as a running server has them.
    await capture(path, senderId, i * 3);
    await capture(path, senderId, i * 3 + 1);
    const rec = await capture(path, senderId, i * 3 + 2);
    recordings.set(`${path}|${senderId}`, rec);
    if (process.env.BENCH_CAPTURE_LOG && i === 0)
      for (const st of [...rec.before, { config: { text: "-- provider call" }, values: [] }, ...rec.after])
        console.error(
          `${path}: ${String(st.config.text).replace(/\s+/g, " ").slice(0, 240)} ${JSON.stringify(st.values).slice(0, 200)}`,
        );
  }
pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { senderId: string; to: string };
        const rec = recordings.get(`${req.url}|${body.senderId}`);
        if (!rec) throw new Error(`no recording for ${req.url} ${body.senderId}`);
        const answer = await replay(rec, body.to.replace(/^\+/, ""));
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(answer);
      } catch (error) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ success: false, message: String(error) }));
      }
    });
  })
  .listen(Number(process.env.PORT ?? 3499), "127.0.0.1", () => console.log("bare send server ready"));

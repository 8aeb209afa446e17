// The bare baseline of bench/broadcast.ts (b), written from scratch on plain pg: the best
// design a competent engineer would write for "send a template to N recipients at the
// provider's rate, written before the call, completed after, crash-safe", with the
// provider's status callbacks stored and applied, and none of the product's code (no
// service, no Prisma, no statement of the product's): its sending is
// bench/broadcast-bare-send.ts (two statements per batch), its callbacks
// bench/broadcast-bare-callbacks.ts (an INSERT per callback, two statements per batch of
// callbacks). The provider is the same as the real side's: the built-in simulator in this
// process (it reads the templates and windows it knows from the database), posting its
// signed callbacks over HTTP to this process's control endpoint (bench/broadcast-control.ts).
// PORT, DATABASE_URL, PROVIDER_APP_SECRET, SIMULATOR_CALLBACK_URL.
import pg from "pg";
import { getProvider } from "@/lib/domains/provider/client";
import { receiveBare, startBareProcessor } from "./broadcast-bare-callbacks";
import { type BareSender, createPacer, sendBare, startBare, sweepBare } from "./broadcast-bare-send";
import { controlServer, recordCalls, sqlStats } from "./broadcast-control";

const printStats = process.env.BENCH_SQL_STATS ? sqlStats() : undefined;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await createPacer(pool);
const provider = getProvider();
recordCalls();
const processor = startBareProcessor(pool);
const sweep = setInterval(() => void sweepBare(pool).catch((e) => console.error("bare sweep failed", e)), 10_000);

controlServer(Number(process.env.PORT), {
  start: async (r) => {
    const t0 = performance.now();
    const uid = await startBare(pool, r);
    const startMs = performance.now() - t0;
    const [s] = (
      await pool.query<BareSender & { throughputPerSecond: number }>(
        `SELECT id, "customerId", "phoneNumber", "phoneNumberId", "wabaId", "throughputPerSecond", "messagingLimit"
           FROM "Sender" WHERE id = $1`,
        [r.senderId],
      )
    ).rows;
    const [t] = (
      await pool.query<{ name: string; language: string; providerTemplateId: string; category: string }>(
        `SELECT name, language, "providerTemplateId", lower(category::text) AS category FROM "Template"
          WHERE "customerId" = $1 AND name = 'order_update' AND language = 'en'`,
        [r.customerId],
      )
    ).rows;
    if (!s || !t) throw new Error("bare: no sender or template");
    void sendBare(pool, provider, uid, s, t).catch((error) => console.error("bare broadcast failed", error));
    return { uid, startMs };
  },
  providerCallback: (raw, signature) => receiveBare(pool, raw, signature, processor.wake),
});
process.on("SIGTERM", () => {
  printStats?.();
  processor.stop();
  clearInterval(sweep);
  void pool.end().finally(() => process.exit(0));
});
console.log("bench broadcast bare ready");

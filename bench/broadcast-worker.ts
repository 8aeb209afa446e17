// The real side of bench/broadcast.ts: the service's background work as `npm run worker`
// runs it (lib/background.ts: the broadcast dispatcher, the callback processor, the delivery
// worker...) for the bench customer, the built-in simulator in this process, and the bench's
// control endpoint (bench/broadcast-control.ts): POST /start creates the broadcast and starts
// it with the service (the recipients made in chunks of INSERT ... SELECT), the dispatcher of this
// process sends it; the simulator's signed status callbacks come over HTTP to
// /api/provider/webhook, the product's provider endpoint (lib/http/provider-webhook.ts), and
// the callback processor applies them.
// PORT, DATABASE_URL, BENCH_CUSTOMER (the customer whose broadcasts this worker sends),
// SIMULATOR_CALLBACK_URL (this process's control endpoint).
import { startBackgroundWork } from "@/lib/background";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { materialise } from "@/lib/domains/broadcasts/materialise";
import { createBroadcast, startBroadcast } from "@/lib/domains/broadcasts/service";
import { handleProviderWebhook } from "@/lib/http/provider-webhook";
import { controlServer, recordCalls, type StartRequest, sqlStats } from "./broadcast-control";

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
  // A large audience is STARTING when the request answers: its chunks are made here to the
  // end (the dispatcher of this process serves only the bench customer's broadcasts).
  await startedFully(row.id);
  return { uid: row.id, startMs: performance.now() - t0 };
}

/** Makes a STARTING broadcast's remaining chunks until it is no longer STARTING. */
async function startedFully(uid: string): Promise<void> {
  for (;;) {
    const { status } = await db.broadcast.findUniqueOrThrow({ where: { id: uid }, select: { status: true } });
    if (status !== "STARTING") return;
    await materialise(uid, Number.POSITIVE_INFINITY);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const printStats = process.env.BENCH_SQL_STATS ? sqlStats() : undefined;
  process.on("SIGTERM", () => printStats?.());
  const customer = process.env.BENCH_CUSTOMER ?? "";
  const background = await startBackgroundWork({ customerIds: [customer] });
  recordCalls();
  controlServer(Number(process.env.PORT), {
    start: createAndStart,
    providerCallback: async (raw, signature) => {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (signature) headers["X-Hub-Signature-256"] = signature;
      const response = await handleProviderWebhook(
        new Request("http://127.0.0.1/api/provider/webhook", { method: "POST", headers, body: new Uint8Array(raw) }),
      );
      await response.arrayBuffer();
      return response.status;
    },
  });
  process.on("SIGTERM", () => void background.stop().then(() => process.exit(0)));
  console.log("bench broadcast worker ready");
}

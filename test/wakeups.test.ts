// Background work wakes on NOTIFY (lib/db/wakeups.ts): a callback stored by another
// process is applied while the processor sleeps on a long safety poll, on PGlite (the
// socket relays the notification) and on PostgreSQL.
import { afterAll, describe, expect, it } from "vitest";
import { db, getDb } from "@/lib/db";
import { CHANNELS, closeWakeups, notifyExpression, onWakeup, wakeupsReady } from "@/lib/db/wakeups";
import { startCallbackProcessor } from "@/lib/ingest/processor";
import { graceFor } from "./grace";
import { otherConnection } from "./other-connection";

afterAll(closeWakeups);

describe("wake-ups", () => {
  it("delivers a committed NOTIFY to a listener and none for a rolled-back one", async () => {
    let woken = 0;
    let marker = 0;
    const stop = onWakeup("chatbots", () => woken++);
    const stopMarker = onWakeup("deliveries", () => marker++);
    await wakeupsReady();
    // Each listener's start-up call (lib/db/wakeups.ts) comes first.
    await expect.poll(() => woken > 0 && marker > 0, { timeout: 5_000 }).toBe(true);
    const before = woken;
    const markerBefore = marker;
    await otherConnection(async (c) => {
      await c.query("BEGIN");
      await c.query(`SELECT ${notifyExpression("chatbots")}`);
      await c.query("ROLLBACK");
      await c.query(`SELECT pg_notify('${CHANNELS.deliveries}', '')`);
    });
    // Notifications arrive in commit order: once the later one has, the rolled-back one never will.
    await expect.poll(() => marker, { timeout: 5_000 }).toBe(markerBefore + 1);
    expect(woken).toBe(before);
    stopMarker();
    await otherConnection((c) => c.query(`SELECT ${notifyExpression("chatbots")}`));
    await expect.poll(() => woken, { timeout: 2_000 }).toBe(before + 1);
    stop();
  });

  it("calls a listener added to a live connection once when it starts listening (catch-up for work written before)", async () => {
    let keptAlive = 0;
    const keepAlive = onWakeup("reconnect", () => keptAlive++);
    await wakeupsReady();
    // The connection's own start-up calls are done once the first listener has had its own.
    await expect.poll(() => keptAlive, { timeout: 5_000 }).toBeGreaterThan(0);
    let calls = 0;
    const stop = onWakeup("reconnect", () => calls++);
    await expect.poll(() => calls, { timeout: 5_000 }).toBe(1);
    await graceFor(200, "a second start-up call");
    expect(calls).toBe(1);
    stop();
    keepAlive();
  });

  it("applies a callback stored elsewhere long before the processor's 60 s poll", async () => {
    await getDb();
    let sleptAfter = -1;
    const processor = startCallbackProcessor({
      pollMs: 60_000,
      loops: 1,
      onPause: (epoch) => {
        sleptAfter = epoch;
      },
    });
    try {
      await wakeupsReady();
      // The listener's start-up call is the first wake-up: once a pass that began after it has
      // gone to sleep, nothing but the NOTIFY below starts another.
      await expect.poll(() => sleptAfter, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      const id = `cb_wake_${Date.now()}`;
      const body = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
      const storedAt = Date.now();
      await otherConnection((c) =>
        c.query(
          `WITH stored AS (INSERT INTO "ProviderCallback" (id, body, "receivedAt") VALUES ($1, $2, now() AT TIME ZONE 'UTC') RETURNING 1)
           SELECT ${notifyExpression("callbacks")} FROM stored`,
          [id, body],
        ),
      );
      await expect
        .poll(async () => (await db.providerCallback.findUnique({ where: { id } }))?.processedAt ?? null, {
          // How fast is for bench:events; here it is only "woken, not polled" (a loaded machine may take seconds).
          timeout: 15_000,
          interval: 20,
        })
        .not.toBeNull();
      expect(Date.now() - storedAt).toBeLessThan(15_000);
    } finally {
      await processor.stop();
    }
  });
});

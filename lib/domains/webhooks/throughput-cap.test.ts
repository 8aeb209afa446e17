// maxDeliveriesPerSecond (docs/event-pipeline.md "Throughput cap"): two delivery workers
// share one destination's cap, counted in the database, so together they never start more
// than the cap in a second; the cap is set and read through the real router.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { emitEvents } from "@/lib/domains/events/emit";
import { startDeliveryWorker } from "@/lib/domains/webhooks/worker";
import { waitFor } from "@/test/events-helpers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { type Receiver, startReceiver } from "@/test/webhook-receiver";

let receiver: Receiver;
let t: TestCustomer;
const workers: { stop: () => Promise<void> }[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestCustomer();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await receiver?.close();
});

describe("per-destination throughput cap", () => {
  it("is validated, set on create and update, and shown on the destination", async () => {
    const bad = await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      body: {
        webhook: {
          name: "x",
          endpointUrl: receiver.url("/x"),
          events: ["message.status.sent"],
          maxDeliveriesPerSecond: 0,
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");
    const made = await call("POST", "/api/v2/webhooks", {
      token: t.globalToken,
      body: { webhook: { name: "x", endpointUrl: receiver.url("/x"), events: ["message.status.read"] } },
    });
    expect(made.body.data.maxDeliveriesPerSecond).toBeNull();
    const uid = made.body.data.webhookUid;
    const set = await call("POST", `/api/v3/webhooks/${uid}`, {
      token: t.globalToken,
      body: { webhook: { maxDeliveriesPerSecond: 5 } },
    });
    expect(set.body.data.maxDeliveriesPerSecond).toBe(5);
    const cleared = await call("POST", `/api/v3/webhooks/${uid}`, {
      token: t.globalToken,
      body: { webhook: { maxDeliveriesPerSecond: null } },
    });
    expect(cleared.body.data.maxDeliveriesPerSecond).toBeNull();
  });

  it("holds with two workers: at most the cap per second, every delivery still arrives once", async () => {
    const path = "/capped";
    const res = await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      body: {
        webhook: {
          name: "capped",
          endpointUrl: receiver.url(path),
          events: ["message.status.sent"],
          maxDeliveriesPerSecond: 2,
        },
      },
    });
    expect(res.status).toBe(200);
    receiver.route(path, res.body.signingSecret);
    const uid: string = res.body.data.webhookUid;
    const n = 8;
    await emitEvents(
      db,
      Array.from({ length: n }, () => ({
        sender: t.sender,
        type: "message.status.sent",
        dedupeKey: `cap:${randomBytes(8).toString("hex")}`,
        data: {},
      })),
    );
    for (let i = 0; i < 2; i++) {
      workers.push(startDeliveryWorker({ pollMs: 10, concurrency: 8, customerIds: [t.customer.id] }));
    }
    await waitFor(
      async () => (await db.webhookDelivery.count({ where: { destinationId: uid, status: "SUCCEEDED" } })) === n,
      20_000,
      "every capped delivery",
    );
    const got = receiver.on(path);
    expect(got).toHaveLength(n);
    expect(new Set(got.map((r) => r.webhookId)).size).toBe(n);
    expect(got.every((r) => r.verified)).toBe(true);
    // The database's per-second counts never pass the cap...
    const slots = await db.webhookRateSlot.findMany({ where: { destinationId: uid } });
    expect(slots.reduce((sum, s) => sum + s.count, 0)).toBe(n);
    for (const s of slots) expect(s.count).toBeLessThanOrEqual(2);
    expect(slots.length).toBeGreaterThanOrEqual(n / 2);
    // ...and the receiver sees it: 8 at 2 per second need 4 distinct seconds (over 2 s from the
    // first to the last start; the margin absorbs the send latency's jitter), and 5 arrivals
    // never fall within half a second (they need 3 distinct seconds).
    const at = got.map((r) => r.at).sort((x, y) => x - y);
    expect((at.at(-1) ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(1500);
    for (let i = 0; i + 4 < at.length; i++) expect((at[i + 4] ?? 0) - (at[i] ?? 0)).toBeGreaterThanOrEqual(500);
    // No attempt was counted for a delivery deferred by the cap.
    const rows = await db.webhookDelivery.findMany({ where: { destinationId: uid } });
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });
});

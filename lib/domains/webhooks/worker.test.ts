// The delivery worker against a real receiver on 127.0.0.1: retries with growing gaps,
// timeouts, no redirects, 410 deactivation, 429 Retry-After, inactive destinations,
// capped excerpts and several workers never sending the same attempt twice.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryDelayMs } from "@/lib/core/backoff";
import { db } from "@/lib/db";
import { emitEvents } from "@/lib/domains/events/emit";
import { startDeliveryWorker } from "@/lib/domains/webhooks/worker";
import { createDestination, waitFor } from "@/test/events-helpers";
import { createTestCustomer } from "@/test/factory";
import { type Behaviour, type Receiver, startReceiver } from "@/test/webhook-receiver";

let receiver: Receiver;
const customerIds: string[] = [];
const workers: { stop: () => Promise<void> }[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await receiver?.close();
});

/** A fresh sender with one destination at `path` answering with `behaviour`, and n events for it. */
async function scenario(
  path: string,
  behaviour: Behaviour,
  options: Partial<Parameters<typeof createDestination>[0]> = {},
  events = 1,
) {
  const t = await createTestCustomer();
  customerIds.push(t.customer.id);
  const { destination, secret } = await createDestination({
    customerId: t.customer.id,
    senderId: t.sender.id,
    url: receiver.url(path),
    events: ["message.status.sent"],
    ...options,
  });
  receiver.route(path, secret, behaviour);
  const inputs = Array.from({ length: events }, (_, i) => ({
    sender: t.sender,
    type: "message.status.sent",
    dedupeKey: `test:${randomBytes(8).toString("hex")}`,
    data: { n: i },
  }));
  await emitEvents(db, inputs);
  return { t, destination };
}

const deliveriesOf = (destinationId: string) =>
  db.webhookDelivery.findMany({ where: { destinationId }, include: { log: { orderBy: { attempt: "asc" } } } });

const settled = (destinationId: string, n = 1) =>
  waitFor(
    async () => {
      const rows = await deliveriesOf(destinationId);
      return rows.length === n && rows.every((r) => r.status !== "PENDING") && rows;
    },
    15_000,
    "deliveries to settle",
  ).catch(async (error: Error) => {
    // Say where they stand: a timed-out wait alone does not tell a stuck delivery from a slow one.
    const rows = await deliveriesOf(destinationId);
    const where = rows.map(
      (r) =>
        `${r.status}/${r.attempts} attempts/locked ${r.lockedUntil?.toISOString() ?? "-"}/${r.log.map((a) => a.error ?? a.statusCode).join(";")}`,
    );
    throw new Error(`${error.message} at ${new Date().toISOString()}: ${where.join(", ")}`);
  });

describe("delivery worker", () => {
  beforeAll(() => {
    // The jitter is pinned to its maximum so the gaps are deterministic (400 ms, then 800 ms: wide enough to stand out of a loaded machine's noise).
    workers.push(
      startDeliveryWorker({ retryBaseMs: 400, pollMs: 10, leaseMarginMs: 2000, random: () => 1, customerIds }),
    );
  });

  it("full jitter stays within the exponential ceiling", () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const ceiling = 1000 * 2 ** (attempt - 1);
      expect(retryDelayMs(attempt, 1000, 60_000, () => 0)).toBe(0);
      expect(retryDelayMs(attempt, 1000, 60_000, () => 1)).toBe(ceiling);
      const d = retryDelayMs(attempt, 1000, 60_000);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(ceiling);
    }
    expect(retryDelayMs(20, 1000, 60_000, () => 1)).toBe(60_000);
  });

  it("retries a receiver that fails twice, then succeeds: three attempts, growing gaps, same webhook-id", async () => {
    const { destination } = await scenario("/flaky", (n) => ({
      status: n <= 2 ? 500 : 200,
      body: n <= 2 ? "boom" : "ok",
    }));
    const [delivery] = await settled(destination.id);
    expect(delivery?.status).toBe("SUCCEEDED");
    expect(delivery?.log.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(delivery?.log[0]?.responseExcerpt).toBe("boom");
    const got = receiver.on("/flaky");
    expect(got).toHaveLength(3);
    expect(got.every((r) => r.verified && r.webhookId === delivery?.id)).toBe(true);
    const [a, b, c] = got.map((r) => r.at);
    const gap1 = (b ?? 0) - (a ?? 0);
    const gap2 = (c ?? 0) - (b ?? 0);
    expect(gap1, `gaps ${gap1} ms then ${gap2} ms`).toBeGreaterThanOrEqual(395);
    expect(gap2, `gaps ${gap1} ms then ${gap2} ms`).toBeGreaterThanOrEqual(795);
    expect(gap2, `gaps ${gap1} ms then ${gap2} ms`).toBeGreaterThan(gap1);
  });

  it("does not retry when retries are disabled", async () => {
    const { destination } = await scenario("/no-retry", () => ({ status: 503 }), { retryEnabled: false });
    const [delivery] = await settled(destination.id);
    expect(delivery).toMatchObject({ status: "FAILED", attempts: 1, lastStatus: 503 });
    expect(receiver.on("/no-retry")).toHaveLength(1);
  });

  it("stops after retryMaxAttempts retries", async () => {
    const { destination } = await scenario("/always-500", () => ({ status: 500 }), { retryMaxAttempts: 2 });
    const [delivery] = await settled(destination.id);
    expect(delivery).toMatchObject({ status: "FAILED", attempts: 3 });
    expect(receiver.on("/always-500")).toHaveLength(3);
  });

  it("counts an attempt in `attempts` when it starts, so one cut short by a killed worker counts", async () => {
    const { destination } = await scenario("/in-flight", () => ({ status: 200, delayMs: 1500 }), { timeoutMs: 5000 });
    await waitFor(() => receiver.on("/in-flight").length === 1, 10_000, "the request to arrive");
    // The request is out and unanswered: a kill now must not leave the attempt uncounted.
    const [inFlight] = await deliveriesOf(destination.id);
    expect(inFlight).toMatchObject({ status: "PENDING", attempts: 1, log: [] });
    const [done] = await settled(destination.id);
    expect(done).toMatchObject({ status: "SUCCEEDED", attempts: 1 });
    expect(done?.log).toHaveLength(1);
  });

  it("cuts a slow receiver at timeoutMs", async () => {
    const { destination } = await scenario("/slow", () => ({ status: 200, delayMs: 4000 }), {
      timeoutMs: 1000,
      retryEnabled: false,
    });
    const [delivery] = await settled(destination.id);
    expect(delivery?.status).toBe("FAILED");
    const attempt = delivery?.log[0];
    expect(attempt?.statusCode).toBeNull();
    expect(attempt?.error).toMatch(/Timed out after 1000 ms/);
    expect(attempt?.latencyMs).toBeGreaterThanOrEqual(950);
    // Cut well before the receiver's answer at 4 s (the margin is for a loaded machine's timers).
    expect(attempt?.latencyMs).toBeLessThan(3500);
  });

  it("does not follow redirects", async () => {
    const { destination } = await scenario("/redirect", () => ({ status: 302, headers: { location: "/landing" } }), {
      retryEnabled: false,
    });
    receiver.route("/landing", "whsec_AAAA");
    const [delivery] = await settled(destination.id);
    expect(delivery).toMatchObject({ status: "FAILED", lastStatus: 302 });
    expect(receiver.on("/landing")).toHaveLength(0);
  });

  it("caps the response excerpt", async () => {
    const { destination } = await scenario("/big", () => ({ status: 500, body: "x".repeat(10_000) }), {
      retryEnabled: false,
    });
    const [delivery] = await settled(destination.id);
    expect(delivery?.log[0]?.responseExcerpt?.length).toBe(2048);
  });

  it("sets the destination INACTIVE on 410 and cancels its other pending deliveries", async () => {
    const { destination } = await scenario("/gone", () => ({ status: 410, delayMs: 50 }), { retryEnabled: true }, 3);
    const rows = await settled(destination.id, 3);
    // The worker deactivates right after it records the 410 outcome (lib/domains/webhooks/worker.ts).
    const after = await waitFor(
      async () => {
        const d = await db.webhookDestination.findUniqueOrThrow({ where: { id: destination.id } });
        return d.status === "INACTIVE" && d;
      },
      10_000,
      "the destination to go INACTIVE",
    );
    expect(after.inactiveReason).toMatch(/410/);
    expect(rows.filter((r) => r.status === "FAILED").length).toBeGreaterThanOrEqual(1);
    expect(rows.every((r) => r.status === "FAILED" || r.status === "CANCELLED")).toBe(true);
    expect(rows.filter((r) => r.status === "FAILED").every((r) => r.attempts === 1)).toBe(true);
  });

  it("honours Retry-After on 429", async () => {
    const { destination } = await scenario("/busy", (n) =>
      n === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 },
    );
    const [delivery] = await settled(destination.id);
    expect(delivery?.status).toBe("SUCCEEDED");
    const [a, b] = receiver.on("/busy").map((r) => r.at);
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("never sends to an INACTIVE destination and cancels its deliveries", async () => {
    // Not yet served by the worker: the event is queued while ACTIVE, then the destination goes INACTIVE.
    const t = await createTestCustomer();
    const { destination, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/turned-off"),
      events: ["message.status.sent"],
    });
    receiver.route("/turned-off", secret);
    await emitEvents(db, [
      { sender: t.sender, type: "message.status.sent", dedupeKey: `test:${randomBytes(8).toString("hex")}`, data: {} },
    ]);
    expect(await db.webhookDelivery.count({ where: { destinationId: destination.id, status: "PENDING" } })).toBe(1);
    await db.webhookDestination.update({ where: { id: destination.id }, data: { status: "INACTIVE" } });
    customerIds.push(t.customer.id);
    const [delivery] = await settled(destination.id);
    expect(delivery).toMatchObject({ status: "CANCELLED", attempts: 0 });
    expect(delivery?.log).toHaveLength(0);
    expect(receiver.on("/turned-off")).toHaveLength(0);
    // An INACTIVE destination gets no delivery at all for new events.
    const off = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/off"),
      events: ["message.status.sent"],
      status: "INACTIVE",
    });
    receiver.route("/off", off.secret);
    expect(
      await emitEvents(db, [
        {
          sender: t.sender,
          type: "message.status.sent",
          dedupeKey: `test:${randomBytes(8).toString("hex")}`,
          data: {},
        },
      ]),
    ).toBe(1);
    expect(await db.webhookDelivery.count({ where: { destinationId: off.destination.id } })).toBe(0);
    expect(receiver.on("/off")).toHaveLength(0);
  });

  it("several workers never send the same attempt twice", async () => {
    workers.push(startDeliveryWorker({ retryBaseMs: 50, pollMs: 10, leaseMarginMs: 2000, customerIds }));
    workers.push(startDeliveryWorker({ retryBaseMs: 50, pollMs: 10, leaseMarginMs: 2000, customerIds }));
    // A timeout far above any loaded machine's answer time: a retry here would be a timeout, not a double send.
    const { destination } = await scenario("/many", () => ({ status: 200, delayMs: 5 }), { timeoutMs: 20_000 }, 60);
    const rows = await settled(destination.id, 60);
    const odd = rows.filter((r) => !(r.status === "SUCCEEDED" && r.attempts === 1 && r.log.length === 1));
    expect(
      odd.map((r) => ({ status: r.status, attempts: r.attempts, log: r.log.map((a) => a.error ?? a.statusCode) })),
    ).toEqual([]);
    const got = receiver.on("/many");
    expect(got).toHaveLength(60);
    expect(new Set(got.map((r) => r.webhookId)).size).toBe(60);
    expect(got.every((r) => r.verified)).toBe(true);
  });
});

// Endpoint health (docs/event-pipeline.md "Endpoint health"): the circuit breaker in the
// database with a fake clock (opens, holds, probes once, re-opens with a longer backoff,
// closes), several workers asking at once, the 5-day failure streak that disables a
// destination, and the operational events arriving signed at the customer's other
// destination through the real delivery worker.
import { randomBytes } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { emitEvents } from "@/lib/domains/events/emit";
import { BREAKER } from "@/lib/domains/webhooks/breaker";
import { admitDelivery, type HealthOutcome, recordHealth } from "@/lib/domains/webhooks/breaker-store";
import { payloadDocs } from "@/lib/domains/webhooks/catalog";
import { startDeliveryWorker } from "@/lib/domains/webhooks/worker";
import { createDestination, waitFor } from "@/test/events-helpers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { type Receiver, startReceiver } from "@/test/webhook-receiver";

let receiver: Receiver;
/** The customers the delivery worker serves (the fake-clock tests' deliveries stay unsent). */
const customerIds: string[] = [];
const workers: { stop: () => Promise<void> }[] = [];
const ajv = new Ajv2020({ strict: false });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await receiver?.close();
});

const DAY = 24 * 60 * 60_000;
// The fake clock starts a minute ahead of the database's, so the deliveries made now are due before it.
const T0 = new Date(Date.now() + 60_000);
const at = (ms: number) => new Date(T0.getTime() + ms);

async function customer(served = false): Promise<TestCustomer> {
  const t = await createTestCustomer();
  if (served) customerIds.push(t.customer.id);
  return t;
}

/** A destination at `path` and `n` PENDING deliveries to it (no worker picks them: fake-clock tests). */
async function withDeliveries(t: TestCustomer, path: string, n: number, events = ["message.status.sent"]) {
  const { destination, secret } = await createDestination({
    customerId: t.customer.id,
    senderId: t.sender.id,
    url: receiver.url(path),
    events,
  });
  await emitEvents(
    db,
    Array.from({ length: n }, (_, i) => ({
      sender: t.sender,
      type: "message.status.sent",
      dedupeKey: `breaker:${randomBytes(8).toString("hex")}`,
      data: { n: i },
    })),
  );
  const deliveries = await db.webhookDelivery.findMany({
    where: { destinationId: destination.id },
    orderBy: { id: "asc" },
  });
  return { destination, secret, ids: deliveries.map((d) => d.id) };
}

const outcome = (destinationId: string, deliveryId: string, ok: boolean, when: Date): HealthOutcome => ({
  destinationId,
  deliveryId,
  ok,
  at: when,
  status: ok ? "SUCCEEDED" : "PENDING",
});
const health = (id: string) => db.webhookDestination.findUniqueOrThrow({ where: { id } });
const job = (destinationId: string, id: string) => ({ id, destinationId, timeoutMs: 2000 });

describe("circuit breaker (fake clock)", () => {
  it("opens after 5 failures, holds the pending deliveries, lets one probe through, re-opens longer, closes", async () => {
    const t = await customer();
    const { destination, ids } = await withDeliveries(t, "/breaker-cycle", 8);
    const d = destination.id;
    const [a, b, c, e, f, g, h, i] = ids as [string, string, string, string, string, string, string, string];

    // Four failures: still closed.
    await recordHealth(
      [a, b, c, e].map((id, n) => outcome(d, id, false, at(n))),
      at(4),
    );
    expect(await health(d)).toMatchObject({ breakerState: "CLOSED", consecutiveFailures: 4, failingSince: T0 });

    // The fifth opens it: the first probe waits 30 s, and the waiting deliveries wait with it (no attempt burnt).
    await recordHealth([outcome(d, f, false, at(5))], at(10));
    expect(await health(d)).toMatchObject({ breakerState: "OPEN", breakerOpenCount: 1, nextProbeAt: at(30_010) });
    const held = await db.webhookDelivery.findMany({ where: { destinationId: d } });
    expect(held.every((x) => x.status === "PENDING" && x.attempts === 0)).toBe(true);
    expect(held.every((x) => x.nextAttemptAt.getTime() === at(30_010).getTime())).toBe(true);

    // Saving an ACTIVE destination (status ACTIVE again) keeps its breaker: only re-enabling resets it.
    const saved = await call("POST", `/api/v3/webhooks/${d}`, {
      token: t.globalToken,
      body: { webhook: { status: "ACTIVE" } },
    });
    expect(saved.body.data.health).toMatchObject({ breakerState: "OPEN", consecutiveFailures: 5 });

    // While open nothing may be attempted.
    expect(await admitDelivery(job(d, g), at(20_000))).toEqual({ decision: "wait", until: at(30_010) });

    // After the backoff, exactly one of several workers asking at once gets the probe.
    const asks = await Promise.all([g, h, i].map((id) => admitDelivery(job(d, id), at(30_010))));
    const probes = asks.filter((x) => x.decision === "probe");
    expect(probes).toHaveLength(1);
    expect(asks.filter((x) => x.decision === "wait")).toHaveLength(2);
    const probe = (await health(d)).probeDeliveryId;
    expect([g, h, i]).toContain(probe);
    expect(await health(d)).toMatchObject({ breakerState: "HALF_OPEN" });
    // Its failure is written to the delivery (retry due) before the breaker hears of it: claimed again in
    // that gap, the probe's own delivery waits for the probe's lease instead of going out a second time.
    expect((await admitDelivery(job(d, probe ?? ""), at(30_100))).decision).toBe("wait");

    // The probe fails: open again, the backoff doubled (60 s).
    await recordHealth([outcome(d, probe ?? "", false, at(30_500))], at(31_000));
    expect(await health(d)).toMatchObject({ breakerState: "OPEN", breakerOpenCount: 2, nextProbeAt: at(91_000) });
    expect((await admitDelivery(job(d, a), at(90_999))).decision).toBe("wait");

    // The next probe succeeds: closed, streak over, held deliveries due at once (paced by the ramp).
    expect((await admitDelivery(job(d, a), at(91_000))).decision).toBe("probe");
    await recordHealth([outcome(d, a, true, at(91_100))], at(91_200));
    expect(await health(d)).toMatchObject({
      breakerState: "CLOSED",
      consecutiveFailures: 0,
      failingSince: null,
      nextProbeAt: null,
      breakerClosedAt: at(91_200),
    });
    const released = await db.webhookDelivery.findMany({ where: { destinationId: d } });
    expect(released.every((x) => x.nextAttemptAt.getTime() <= at(91_200).getTime())).toBe(true);
    expect(await admitDelivery(job(d, b), at(91_300))).toEqual({ decision: "send" });

    // The API shows the state and the thresholds.
    const got = await call("GET", `/api/v3/webhooks/${d}`, { token: t.globalToken });
    expect(got.body.data.health).toMatchObject({
      breakerState: "CLOSED",
      consecutiveFailures: 0,
      thresholds: {
        failuresToOpen: 5,
        probeBackoffMinSeconds: 30,
        probeBackoffMaxSeconds: 3600,
        disableAfterSeconds: 432_000,
      },
    });
  });

  it("a success resets the streak; 5 days of nothing but failures disables the destination", async () => {
    const t = await customer();
    const { destination, ids } = await withDeliveries(t, "/breaker-streak", 3);
    const d = destination.id;
    const [a, b, c] = ids as [string, string, string];
    await recordHealth([outcome(d, a, false, at(0))], at(0));
    await recordHealth([outcome(d, a, false, at(4 * DAY))], at(4 * DAY));
    await recordHealth([outcome(d, b, true, at(4 * DAY + 1000))], at(4 * DAY + 1000));
    expect(await health(d)).toMatchObject({ consecutiveFailures: 0, failingSince: null });
    await recordHealth([outcome(d, c, false, at(4 * DAY + 2000))], at(4 * DAY + 2000));
    // Five days after the FIRST failure, but the success broke that streak: still active.
    await recordHealth([outcome(d, c, false, at(5 * DAY + 60_000))], at(5 * DAY + 60_000));
    expect(await health(d)).toMatchObject({ status: "ACTIVE", failingSince: at(4 * DAY + 2000) });
    // Five days after the new streak began: disabled, with a reason, pending deliveries cancelled.
    await recordHealth([outcome(d, c, false, at(9 * DAY + 2000))], at(9 * DAY + 2000));
    const off = await health(d);
    expect(off).toMatchObject({ status: "INACTIVE", disabledAt: at(9 * DAY + 2000) });
    expect(off.inactiveReason).toMatch(/every delivery attempt failed since .* \(5 days without a success\)/);
    expect(await db.webhookDelivery.count({ where: { destinationId: d, status: "PENDING" } })).toBe(0);
    const got = await call("GET", `/api/v2/webhooks/${d}`, { token: t.globalToken });
    expect(got.body.data).toMatchObject({ status: "INACTIVE", disabledReason: off.inactiveReason });

    // Re-enabling (status ACTIVE) resets the breaker and clears the reason.
    const on = await call("POST", `/api/v3/webhooks/${d}`, {
      token: t.globalToken,
      body: { webhook: { status: "ACTIVE" } },
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ status: "ACTIVE", disabledAt: null, disabledReason: null });
    expect(on.body.data.health).toMatchObject({ breakerState: "CLOSED", consecutiveFailures: 0, failingSince: null });
    expect(on.body.data.health.recoveringUntil).not.toBeNull();
  });
});

describe("operational events through the delivery worker", () => {
  beforeAll(() => {
    workers.push(startDeliveryWorker({ retryBaseMs: 50, pollMs: 20, leaseMarginMs: 2000, customerIds }));
  });

  /** A second destination of the customer subscribed to the operational events, verified by the receiver. */
  async function watcher(t: TestCustomer, path: string) {
    const { destination, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url(path),
      events: ["webhook.endpoint.disabled", "webhook.delivery.exhausted"],
    });
    receiver.route(path, secret);
    return destination;
  }

  const validates = (type: string, body: unknown) => {
    const validate = ajv.compile(payloadDocs()[type]?.schema ?? {});
    return validate(body) || ajv.errorsText(validate.errors);
  };

  it("a probe failing after 5 days of failures disables the endpoint; the other destination hears of it, signed", async () => {
    const t = await customer(true);
    const other = await watcher(t, "/ops-disabled");
    const { destination: dead, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/dead"),
      events: ["message.status.sent", "webhook.endpoint.disabled"],
    });
    receiver.route("/dead", secret, () => ({ status: 503 }));
    const since = new Date(Date.now() - BREAKER.disableAfterMs - 60_000);
    await db.webhookDestination.update({
      where: { id: dead.id },
      data: {
        breakerState: "OPEN",
        consecutiveFailures: 40,
        failingSince: since,
        breakerOpenCount: 7,
        nextProbeAt: new Date(Date.now() - 1000),
      },
    });
    await emitEvents(db, [
      { sender: t.sender, type: "message.status.sent", dedupeKey: `dead:${randomBytes(6).toString("hex")}`, data: {} },
    ]);
    const [got] = await waitFor(() => receiver.on("/ops-disabled").length > 0 && receiver.on("/ops-disabled"), 15_000);
    expect(got?.verified).toBe(true);
    expect(got?.payload).toMatchObject({
      type: "webhook.endpoint.disabled",
      data: { webhookUid: dead.id, status: "INACTIVE", failingSince: since.toISOString(), consecutiveFailures: 41 },
    });
    expect(validates("webhook.endpoint.disabled", got?.payload)).toBe(true);
    expect(receiver.on("/dead")).toHaveLength(1); // the one probe, no flood
    expect(await health(dead.id)).toMatchObject({ status: "INACTIVE" });
    // Only the other destination gets it: none for the disabled one itself.
    const events = await db.webhookDelivery.findMany({
      where: { event: { type: "webhook.endpoint.disabled", customerId: t.customer.id } },
    });
    expect(events.map((x) => x.destinationId)).toEqual([other.id]);
  });

  it("a delivery that gives up raises webhook.delivery.exhausted on the other destination, not on its own", async () => {
    const t = await customer(true);
    const other = await watcher(t, "/ops-exhausted");
    const { destination: failing, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/gives-up"),
      events: ["message.status.sent", "webhook.delivery.exhausted"],
      retryMaxAttempts: 1,
    });
    receiver.route("/gives-up", secret, () => ({ status: 500 }));
    await emitEvents(db, [
      { sender: t.sender, type: "message.status.sent", dedupeKey: `gives:${randomBytes(6).toString("hex")}`, data: {} },
    ]);
    const [got] = await waitFor(
      () => receiver.on("/ops-exhausted").length > 0 && receiver.on("/ops-exhausted"),
      15_000,
    );
    expect(got?.verified).toBe(true);
    const [failed] = await db.webhookDelivery.findMany({ where: { destinationId: failing.id } });
    expect(failed).toMatchObject({ status: "FAILED", attempts: 2 });
    expect(got?.payload).toMatchObject({
      type: "webhook.delivery.exhausted",
      data: {
        webhookUid: failing.id,
        deliveryId: failed?.id,
        eventType: "message.status.sent",
        attempts: 2,
        lastStatusCode: 500,
      },
    });
    expect(validates("webhook.delivery.exhausted", got?.payload)).toBe(true);
    const ops = await db.webhookDelivery.findMany({
      where: { event: { type: "webhook.delivery.exhausted", customerId: t.customer.id } },
    });
    expect(ops.map((x) => x.destinationId)).toEqual([other.id]);
    // Two failures (below the threshold): the breaker stays closed.
    expect(await health(failing.id)).toMatchObject({ breakerState: "CLOSED", consecutiveFailures: 2 });
  });

  it("while the breaker is open the worker attempts nothing: claimed deliveries go back to wait for the probe", async () => {
    const t = await customer(true);
    const { destination, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/paused"),
      events: ["message.status.sent"],
    });
    receiver.route("/paused", secret);
    const probeAt = new Date(Date.now() + 60 * 60_000);
    await db.webhookDestination.update({
      where: { id: destination.id },
      data: {
        breakerState: "OPEN",
        consecutiveFailures: 5,
        failingSince: new Date(),
        breakerOpenCount: 1,
        nextProbeAt: probeAt,
      },
    });
    await emitEvents(
      db,
      [1, 2, 3].map((n) => ({
        sender: t.sender,
        type: "message.status.sent",
        dedupeKey: `p${n}:${randomBytes(6).toString("hex")}`,
        data: {},
      })),
    );
    const rows = await waitFor(
      async () => {
        const r = await db.webhookDelivery.findMany({ where: { destinationId: destination.id } });
        return (
          r.length === 3 &&
          r.every((x) => x.nextAttemptAt.getTime() === probeAt.getTime() && x.lockedUntil === null) &&
          r
        );
      },
      15_000,
      "the worker to hand the deliveries back",
    );
    expect(rows.every((x) => x.status === "PENDING" && x.attempts === 0)).toBe(true);
    expect(await db.webhookAttempt.count({ where: { delivery: { destinationId: destination.id } } })).toBe(0);
    expect(receiver.on("/paused")).toHaveLength(0);
  });

  it("a successful probe closes the breaker and the held deliveries follow", async () => {
    const t = await customer(true);
    const { destination, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/back"),
      events: ["message.status.sent"],
    });
    receiver.route("/back", secret);
    await db.webhookDestination.update({
      where: { id: destination.id },
      data: {
        breakerState: "OPEN",
        consecutiveFailures: 9,
        failingSince: new Date(),
        breakerOpenCount: 2,
        nextProbeAt: new Date(),
      },
    });
    await emitEvents(
      db,
      [1, 2, 3].map((n) => ({
        sender: t.sender,
        type: "message.status.sent",
        dedupeKey: `b${n}:${randomBytes(6).toString("hex")}`,
        data: {},
      })),
    );
    await waitFor(
      async () => {
        const r = await db.webhookDelivery.findMany({ where: { destinationId: destination.id } });
        return r.length === 3 && r.every((x) => x.status === "SUCCEEDED");
      },
      15_000,
      "all three to arrive",
    );
    expect(receiver.on("/back").every((r) => r.verified)).toBe(true);
    const h = await health(destination.id);
    expect(h).toMatchObject({ breakerState: "CLOSED", consecutiveFailures: 0, failingSince: null });
    expect(h.breakerClosedAt).not.toBeNull();
  });
});

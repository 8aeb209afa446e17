// Callbacks applied in batches (docs/event-pipeline.md "Provider callbacks" and "Statuses ->
// billing records and ledger"): a batch of statuses costs a fixed number of statements whatever
// its size (set-based, no ORM), exactly once under replay; stored callbacks wake the processors
// once per window, and a callback stored while a pass runs is still applied at once, not by the
// safety poll; a process that stops sends the last window's wake-up before closing its database.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker } from "@/lib/core/worker-loop";
import { db, disconnectDb } from "@/lib/db";
import { CHANNELS, wakeupsReady } from "@/lib/db/wakeups";
import { setRate } from "@/lib/domains/billing/rate-card";
import { flushCallbackWakeup, notifyWindow } from "@/lib/domains/provider/callbacks/accept";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { callbackProcessor } from "@/lib/ingest/processor";
import { postProvider, sentMessages, statusBody } from "./events-helpers";
import { createTestCustomer, type TestCustomer } from "./factory";
import { otherConnection } from "./other-connection";

let t: TestCustomer;
const windowMs = notifyWindow.ms;

beforeAll(async () => {
  t = await createTestCustomer();
  // The customer's own rate (customerRates: their override over the global rate).
  await setRate({ category: "marketing", rate: 0.05, customerId: t.customer.id });
});
afterAll(() => {
  notifyWindow.ms = windowMs;
});

/** Statements sent to PostgreSQL (any pool, Prisma's or plain pg) while `run` runs. */
async function counting<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const query = pg.Client.prototype.query;
  let statements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return { result: await run(), statements };
  } finally {
    pg.Client.prototype.query = query;
  }
}

async function figures(tag: string) {
  const where = { customerId: t.customer.id, messageId: { startsWith: `wamid.${tag}.` } };
  const [records, debits, events, delivered] = await Promise.all([
    db.billingRecord.count({ where }),
    db.billingTransaction.findMany({
      where: { customerId: t.customer.id, description: { startsWith: `Message wamid.${tag}.` } },
      select: { amount: true },
    }),
    db.webhookEvent.count({ where: { customerId: t.customer.id, dedupeKey: { startsWith: `status:wamid.${tag}.` } } }),
    db.message.count({
      where: { customerId: t.customer.id, providerMessageId: { startsWith: `wamid.${tag}.` }, status: "delivered" },
    }),
  ]);
  return { records, debits: debits.map((d) => d.amount.toString()), events, delivered };
}

/** Processes until none of these callbacks is pending; returns each batch's size and statements. */
async function processAll(bodies: string[]) {
  const batches: { callbacks: number; statements: number }[] = [];
  const pending = () => db.providerCallback.count({ where: { processedAt: null, body: { in: bodies } } });
  for (let i = 0; i < 50 && (await pending()) > 0; i++) {
    const { result, statements } = await counting(() => processPendingCallbacks(100));
    batches.push({ callbacks: result.callbacks, statements });
  }
  return batches;
}

describe("callback batches", () => {
  it("applies 400 statuses in one batch in a fixed number of statements, in order, once under replay", async () => {
    const tag = `b${randomBytes(4).toString("hex")}`;
    const ids = Array.from({ length: 200 }, (_, i) => `wamid.${tag}.${i}`);
    await sentMessages(t.sender, tag, new Map(ids.map((id) => [id, "+15550001111"])));
    // 20 callbacks of delivered, then 20 of sent for the same messages: one batch applies them in lifecycle order.
    const chunk = (status: string) =>
      Array.from({ length: 20 }, (_, c) =>
        statusBody(
          t.sender,
          ids.slice(c * 10, c * 10 + 10).map((id) => ({ id, status, timestamp: status === "sent" ? 100 : 200 })),
        ),
      );
    const bodies = [...chunk("delivered"), ...chunk("sent")];
    for (const b of bodies) expect((await postProvider(b)).status).toBe(200);
    const first = await processAll(bodies);
    const after = await figures(tag);
    expect(after).toEqual({ records: 200, debits: ids.map(() => "0.05"), events: 400, delivered: 200 });
    // The batch that took them all: a fixed set of statements, whatever the number of statuses
    // (about 20: the claim, the reads, one write per table, the events, the mark), not one per status.
    const big = first.reduce((a, b) => (b.callbacks > a.callbacks ? b : a));
    expect(big.callbacks).toBeGreaterThanOrEqual(bodies.length);
    expect(big.statements).toBeLessThanOrEqual(30);

    // The provider replays them all: nothing is billed, moved or emitted twice.
    for (const b of bodies) expect((await postProvider(b)).status).toBe(200);
    await processAll(bodies);
    expect(await figures(tag)).toEqual(after);
  });

  it("wakes the processors once per window while POSTs follow one another, and once more after the last", async () => {
    notifyWindow.ms = 3_000;
    try {
      await otherConnection(async (client) => {
        const heard: number[] = [];
        client.on("notification", (n) => {
          if (n.channel === CHANNELS.callbacks) heard.push(Date.now());
        });
        await client.query(`LISTEN ${CHANNELS.callbacks}`);
        const sender = { phoneNumberId: `pn_${randomBytes(4).toString("hex")}`, wabaId: "waba_window" };
        let lastAnswered = 0;
        for (let i = 0; i < 10; i++) {
          const body = statusBody(sender, [{ id: `wamid.window.${i}`, status: "sent" }]);
          expect((await postProvider(body)).status).toBe(200);
          lastAnswered = Date.now();
        }
        // The trailing NOTIFY goes out after the last commit, at the window's end.
        await expect.poll(() => heard.filter((at) => at >= lastAnswered).length, { timeout: 10_000 }).toBe(1);
        // One per window: ten POSTs in a window or two (a slow machine) are at most four NOTIFYs, not ten
        // (the first POST's own is not sent when the window of an earlier test's last NOTIFY is still open).
        expect(heard.length).toBeLessThanOrEqual(4);
      });
    } finally {
      notifyWindow.ms = windowMs;
    }
  });

  it("applies a callback stored while a pass runs without waiting for the safety poll", async () => {
    // Its store carries no NOTIFY (the window's went with the first callback's): the trailing one wakes the processor.
    notifyWindow.ms = 1_000;
    const tag = `p${randomBytes(4).toString("hex")}`;
    const [a, b] = [`wamid.${tag}.a`, `wamid.${tag}.b`];
    await sentMessages(t.sender, tag, new Map([a, b].map((id) => [id, "+15550001111"])));
    const bodyA = statusBody(t.sender, [{ id: a, status: "sent" }]);
    const bodyB = statusBody(t.sender, [{ id: b, status: "sent" }]);
    const processedAt = async (body: string) =>
      (await db.providerCallback.findFirst({ where: { body }, select: { processedAt: true } }))?.processedAt ?? null;
    let storedB: number | undefined;
    let passesAfterB = 0;
    const definition = callbackProcessor({ pollMs: 60_000, loops: 1 });
    const worker = startWorker({
      ...definition,
      pass: async (context) => {
        if (storedB !== undefined) passesAfterB += 1;
        const result = await definition.pass(context);
        // The pass has claimed and applied A: B is stored before the pass ends.
        if (storedB === undefined && (await processedAt(bodyA))) {
          expect((await postProvider(bodyB)).status).toBe(200);
          storedB = Date.now();
        }
        return result;
      },
    });
    try {
      await wakeupsReady();
      expect((await postProvider(bodyA)).status).toBe(200);
      await expect.poll(() => storedB, { timeout: 15_000 }).toBeDefined();
      await expect.poll(() => processedAt(bodyB), { timeout: 15_000, interval: 50 }).not.toBeNull();
      // Woken (a later pass), long before the 60 s poll.
      expect(passesAfterB).toBeGreaterThanOrEqual(1);
      expect(Date.now() - (storedB ?? 0)).toBeLessThan(15_000);
      expect(await db.billingRecord.count({ where: { messageId: { in: [a, b] } } })).toBe(2);
    } finally {
      await worker.stop();
      notifyWindow.ms = windowMs;
    }
  });

  // Last: it closes the database as a stopping process does (the next user reconnects).
  it("sends the last window's trailing NOTIFY when the process stops, before it closes the database", async () => {
    // A window far longer than the wait below: only the flush can send the trailing NOTIFY in time.
    notifyWindow.ms = 120_000;
    try {
      await otherConnection(async (client) => {
        let heard = 0;
        client.on("notification", (n) => {
          if (n.channel === CHANNELS.callbacks) heard += 1;
        });
        await client.query(`LISTEN ${CHANNELS.callbacks}`);
        const sender = { phoneNumberId: `pn_${randomBytes(4).toString("hex")}`, wabaId: "waba_stop" };
        const post = async (i: number) =>
          expect((await postProvider(statusBody(sender, [{ id: `wamid.stop.${i}`, status: "sent" }]))).status).toBe(
            200,
          );
        // The first may carry the window's NOTIFY; a trailing one an earlier test left due (its
        // window at most 1 s) is sent meanwhile. The second's commit leaves a trailing one due in 2 min.
        await post(0);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await post(1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const before = heard;
        // The shutdown paths (scripts/supervisor.ts, worker.ts, serve-api.ts): flush, then close.
        await flushCallbackWakeup();
        await disconnectDb();
        await expect.poll(() => heard, { timeout: 5_000, interval: 20 }).toBe(before + 1);
      });
    } finally {
      notifyWindow.ms = windowMs;
    }
  });
});

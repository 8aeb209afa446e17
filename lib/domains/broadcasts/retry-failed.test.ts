// "Retry failed" through the real router and dispatcher (docs/broadcasts.md "Retrying failed
// recipients"): only codes a later attempt can get past are queued again, 131049 not within
// 24 hours of the failure, never template errors nor interrupted recipients; a new attempt
// is a new message; the balance check, the state conflict, the audit entry and isolation.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { otherConnection } from "@/test/other-connection";
import { dispatchOnce } from "./dispatcher";
import { retryChunks } from "./retry-failed";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let a: Customer;
let other: TestCustomer;

const post = (token: string, uid: string, action: string, body: Record<string, unknown> = {}) =>
  call("POST", `/api/v3/broadcasts/${uid}${action ? `/${action}` : ""}`, { token, body });

/** Dispatcher passes until the broadcast leaves SENDING; `ahead` moves its clock past the pair rate's 6 s. */
async function sendAll(customerId: string, uid: string, aheadMs = 0) {
  for (let i = 0; i < 200; i++) {
    await dispatchOnce({ customerIds: [customerId], now: () => new Date(Date.now() + aheadMs) });
    const b = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
    if (b.status !== "SENDING") return b;
  }
  throw new Error("broadcast did not finish");
}

/** A COMPLETED broadcast to these numbers (one book). */
async function completedBroadcast(phones: string[]): Promise<string> {
  const book = await db.contactBook.create({ data: { customerId: a.customer.id, name: `Book ${uniquePhone()}` } });
  await db.contact.createMany({
    data: phones.map((phoneNumber, i) => ({
      customerId: a.customer.id,
      contactBookId: book.id,
      phoneNumber,
      name: `Person ${i}`,
    })),
  });
  const created = await call("POST", "/api/v3/broadcasts", {
    token: a.globalToken,
    body: {
      broadcast: {
        name: "Retry me",
        // Utility: the simulator's pair rule is strict for marketing only, and its clock is
        // the real one, while the dispatcher's here runs ahead (below).
        template: { name: "order_update", language: "en" },
        audience: { contactBookUids: [book.id] },
        variables: { body: [{ source: "name" }] },
      },
    },
  });
  const uid = created.body.data.broadcastUid as string;
  expect((await post(a.globalToken, uid, "start")).status).toBe(200);
  expect((await sendAll(a.customer.id, uid)).status).toBe("COMPLETED");
  return uid;
}

/** What the provider's failures would leave: status failed with a code, failed so many hours ago. */
async function fail(uid: string, phone: string, code: number, hoursAgo: number) {
  await db.$executeRawUnsafe(
    `UPDATE "BroadcastRecipient" SET status = 'failed', "errorCode" = $3,
            "failedAt" = (now() AT TIME ZONE 'UTC') - make_interval(hours => $4)
      WHERE "broadcastId" = $1 AND "phoneNumber" = $2`,
    uid,
    phone,
    code,
    hoursAgo,
  );
}

const recipient = (uid: string, phoneNumber: string) =>
  db.broadcastRecipient.findUniqueOrThrow({ where: { broadcastId_phoneNumber: { broadcastId: uid, phoneNumber } } });

beforeAll(async () => {
  [a, other] = await Promise.all([messagingCustomer({ credit: 100 }), createTestCustomer()]);
  await db.rateCard.upsert({
    where: { scope_pricingCategory: { scope: a.customer.id, pricingCategory: "utility" } },
    create: { scope: a.customer.id, customerId: a.customer.id, pricingCategory: "utility", rate: 0.05 },
    update: { rate: 0.05 },
  });
});

describe("retry failed", () => {
  it("queues again only what a later attempt can get past, sends each as a new message, and says what waits", async () => {
    const [pair, capOld, capNew, params, interrupted, fine] = Array.from({ length: 6 }, () => uniquePhone());
    const uid = await completedBroadcast([pair, capOld, capNew, params, interrupted, fine]);
    const firstMessageOf = new Map<string, string | null>();
    for (const p of [pair, capOld]) firstMessageOf.set(p, (await recipient(uid, p)).messageId);
    await fail(uid, pair, 131056, 0);
    await fail(uid, capOld, 131049, 25);
    await fail(uid, capNew, 131049, 1);
    await fail(uid, params, 132000, 0);
    // Interrupted: its call's outcome is not known (an accepted message would be taken as its status).
    const cut = await db.broadcastRecipient.update({
      where: { broadcastId_phoneNumber: { broadcastId: uid, phoneNumber: interrupted } },
      data: { status: "interrupted" },
    });
    await db.message.update({ where: { id: cut.messageId as string }, data: { status: "unknown" } });
    const capNewFailedAt = (await recipient(uid, capNew)).failedAt as Date;

    const res = await post(a.globalToken, uid, "retry-failed");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe("2 failed recipients queued again");
    expect(res.body.data).toMatchObject({ status: "SENDING", completedAt: null, retry: { requeued: 2, waiting: 1 } });
    expect(res.body.data.counts).toMatchObject({ queued: 2, failed: 2, interrupted: 1 });
    // The waiting one is retryable 24 hours after its failure.
    expect(Date.parse(res.body.data.retry.retryableAt)).toBe(capNewFailedAt.getTime() + 24 * 3_600_000);

    // The retries are spaced from the first messages by the pair rate (6 s): a clock 7 s ahead.
    expect((await sendAll(a.customer.id, uid, 7_000)).status).toBe("COMPLETED");
    for (const p of [pair, capOld]) {
      const r = await recipient(uid, p);
      expect(["accepted", "sent", "delivered", "read"], p).toContain(r.status);
      expect(r.errorCode).toBeNull();
      expect(r.messageId).not.toBe(firstMessageOf.get(p));
      // Two messages to this contact: the failed one and the retry.
      expect(await db.message.count({ where: { broadcastId: uid, recipient: p } })).toBe(2);
    }
    expect(await recipient(uid, capNew)).toMatchObject({ status: "failed", errorCode: 131049 });
    expect(await recipient(uid, params)).toMatchObject({ status: "failed", errorCode: 132000 });
    expect((await recipient(uid, interrupted)).status).toBe("interrupted");
    for (const p of [capNew, params, interrupted, fine]) {
      expect(await db.message.count({ where: { broadcastId: uid, recipient: p } }), p).toBe(1);
    }

    // Nothing left to retry now: a success that queues nothing, and the broadcast stays COMPLETED.
    const again = await post(a.globalToken, uid, "retry-failed");
    expect(again.status).toBe(200);
    expect(again.body.message).toBe("No failed recipient can be retried now");
    expect(again.body.data).toMatchObject({ status: "COMPLETED", retry: { requeued: 0, waiting: 1 } });

    const audit = await db.auditEvent.findMany({ where: { targetUid: uid, action: "broadcast.retried" } });
    expect(audit.map((e) => e.details)).toEqual([{ requeued: 2, previousStatus: "COMPLETED" }]);
  });

  it("retries the failures of a PAUSED broadcast, which stays paused until resumed", async () => {
    const [one, two] = [uniquePhone(), uniquePhone()];
    const uid = await completedBroadcast([one, two]);
    await fail(uid, one, 131016, 0);
    // As a broadcast paused mid-way would be (the status is all that matters here).
    await db.broadcast.update({ where: { id: uid }, data: { status: "PAUSED", completedAt: null } });
    const res = await post(a.globalToken, uid, "retry-failed");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "PAUSED", retry: { requeued: 1, waiting: 0, retryableAt: null } });
    expect((await recipient(uid, one)).status).toBe("queued");
    expect((await recipient(uid, two)).status).not.toBe("queued");
  });

  it("queues a large retry in chunks after the state change, each failure once, and the audit counts them all", async () => {
    const phones = Array.from({ length: 7 }, () => uniquePhone());
    const uid = await completedBroadcast(phones);
    // Five retryable failures between two that are not: chunks of two step over those.
    for (const [i, p] of phones.entries()) await fail(uid, p, i === 0 || i === 3 ? 132000 : 131016, 0);
    const statements: string[] = [];
    retryChunks.chunk = 2;
    try {
      const res = await post(a.globalToken, uid, "retry-failed");
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ status: "SENDING", retry: { requeued: 5, waiting: 0 } });
      statements.push(
        ...(await db.auditEvent.findMany({ where: { targetUid: uid, action: "broadcast.retried" } })).map((e) =>
          JSON.stringify(e.details),
        ),
      );
    } finally {
      retryChunks.chunk = 5_000;
    }
    expect(statements).toEqual([JSON.stringify({ requeued: 5, previousStatus: "COMPLETED" })]);
    for (const [i, p] of phones.entries()) {
      expect((await recipient(uid, p)).status, p).toBe(i === 0 || i === 3 ? "failed" : "queued");
    }
  });

  // Two processes: a retry holding the broadcast's row while it queues a failure again, and a
  // dispatcher pass that finds nothing to claim and goes to complete the broadcast meanwhile.
  // PostgreSQL only: embedded PGlite runs one statement at a time, so the race cannot happen.
  it.runIf(process.env.TEST_DB === "postgres")(
    "a completion waiting for the row sees a retry committed meanwhile: the broadcast stays SENDING",
    async () => {
      const last = uniquePhone();
      const uid = await completedBroadcast([last]);
      // As it is the moment the last recipient has failed: SENDING, nothing queued.
      await fail(uid, last, 131000, 0);
      await db.broadcast.update({ where: { id: uid }, data: { status: "SENDING", completedAt: null } });
      await otherConnection(async (retry) => {
        await retry.query("BEGIN");
        await retry.query(`SELECT id FROM "Broadcast" WHERE id = $1 FOR UPDATE`, [uid]);
        await retry.query(
          `UPDATE "BroadcastRecipient" SET status = 'queued', "errorCode" = NULL, "messageId" = NULL
            WHERE "broadcastId" = $1`,
          [uid],
        );
        const pass = dispatchOnce({ customerIds: [a.customer.id] });
        // The pass is waiting for the broadcast's row lock.
        await vi.waitFor(
          async () => {
            const waiting = await db.$queryRawUnsafe<{ n: number }[]>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE '%"Broadcast"%' AND datname = current_database()`,
            );
            expect(waiting[0]?.n).toBeGreaterThan(0);
          },
          { timeout: 10_000, interval: 20 },
        );
        await retry.query("COMMIT");
        await pass;
      });
      expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("SENDING");
      expect((await recipient(uid, last)).status).toBe("queued");
    },
  );

  it("refuses a retry the balance does not cover with 402 and details, and changes nothing", async () => {
    const [one, two] = [uniquePhone(), uniquePhone()];
    const uid = await completedBroadcast([one, two]);
    await fail(uid, one, 131000, 0);
    await fail(uid, two, 131000, 0);
    const balance = await db.$queryRawUnsafe<{ b: Prisma.Decimal }[]>(
      `SELECT COALESCE(sum(CASE WHEN type = 'debit' THEN -amount ELSE amount END), 0) AS b
         FROM "BillingTransaction" WHERE "customerId" = $1`,
      a.customer.id,
    );
    // Leaves 0.05: one retry's worth, not two.
    const spend = new Prisma.Decimal(balance[0]?.b ?? 0).minus(0.05);
    const debit = await db.billingTransaction.create({
      data: { customerId: a.customer.id, type: "debit", amount: spend, description: "test spend" },
    });
    try {
      const res = await post(a.globalToken, uid, "retry-failed");
      expect(res.status, JSON.stringify(res.body)).toBe(402);
      expect(res.body).toMatchObject({
        error_code: "INSUFFICIENT_BALANCE",
        details: { estimate: 0.1, balance: 0.05, currency: "USD" },
      });
      for (const p of [one, two])
        expect(await recipient(uid, p)).toMatchObject({ status: "failed", errorCode: 131000 });
      expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("COMPLETED");
    } finally {
      await db.billingTransaction.delete({ where: { id: debit.id } });
    }
  });

  it("is a conflict before the broadcast has started, and NOT_FOUND for another customer or sender", async () => {
    const book = await db.contactBook.create({ data: { customerId: a.customer.id, name: `Book ${uniquePhone()}` } });
    const draft = await call("POST", "/api/v3/broadcasts", {
      token: a.globalToken,
      body: {
        senderId: a.otherSender.phoneNumber,
        broadcast: {
          name: "Draft",
          template: { name: "spring_sale", language: "en" },
          audience: { contactBookUids: [book.id] },
          variables: { body: [{ source: "constant", value: "you" }] },
        },
      },
    });
    const uid = draft.body.data.broadcastUid as string;
    const conflict = await post(a.globalToken, uid, "retry-failed");
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error_code: "BROADCAST_STATE_CONFLICT", details: { status: "DRAFT" } });
    for (const token of [other.globalToken, a.scopedToken]) {
      const res = await post(token, uid, "retry-failed");
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe("BROADCAST_NOT_FOUND");
    }
    // A global token naming another of the account's senders: not that sender's broadcast.
    const viaOtherSender = await post(a.globalToken, uid, "retry-failed", { senderId: a.sender.phoneNumber });
    expect(viaOtherSender.status).toBe(404);
    expect(viaOtherSender.body.error_code).toBe("BROADCAST_NOT_FOUND");
    // A cancelled broadcast has nothing to retry.
    expect((await post(a.globalToken, uid, "cancel")).status).toBe(200);
    const cancelled = await post(a.globalToken, uid, "retry-failed");
    expect(cancelled.status).toBe(409);
    expect(cancelled.body).toMatchObject({ details: { status: "CANCELLED" } });
  });
});

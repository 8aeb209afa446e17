// A broadcast writes its messages per batch (docs/broadcasts.md "How it sends"): one INSERT of
// a batch's Message rows before its provider calls and one UPDATE of their outcomes after,
// whatever the batch's size (a statement per recipient each way was 58% of a broadcast's
// statements, docs/benchmarks.md "Broadcasts"). Counted by the database itself: a statement
// trigger on "Message" records each statement that wrote this broadcast's rows. And a call
// withdrawn after its batch was recorded (the broadcast paused meanwhile) leaves no message.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { dispatchOnce } from "./dispatcher";
import { recipientMessageId } from "./recipient-message";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

let t: Customer;
let provider: RecordingProvider;
const fn = `swb_test_msg_statements_${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 1_000 });
  await db.sender.update({ where: { id: t.sender.id }, data: { throughputPerSecond: 1000 } });
  // No statuses come back during the test: the only writes of the messages are the dispatcher's.
  provider = installRecordingProvider({ simulator: { failureRate: 0, statusDelayMs: 200_000_000, replyRate: 0 } });
  await db.$executeRawUnsafe(`CREATE TABLE ${fn} (op text NOT NULL, broadcast text NOT NULL, n int NOT NULL)`);
  await db.$executeRawUnsafe(
    `CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN
       INSERT INTO ${fn} SELECT TG_OP, "broadcastId", count(*) FROM changed WHERE "broadcastId" IS NOT NULL GROUP BY 2;
       RETURN NULL; END $$ LANGUAGE plpgsql`,
  );
  for (const op of ["INSERT", "UPDATE"]) {
    await db.$executeRawUnsafe(
      `CREATE TRIGGER ${fn}_${op} AFTER ${op} ON "Message" REFERENCING NEW TABLE AS changed
         FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    );
  }
});

afterAll(async () => {
  provider.restore();
  for (const op of ["INSERT", "UPDATE"]) await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn}_${op} ON "Message"`);
  await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
  await db.$executeRawUnsafe(`DROP TABLE IF EXISTS ${fn}`);
});

/** Creates and starts a broadcast to `n` new contacts; its uid and phones. */
async function started(n: number, maxPerSecond?: number): Promise<{ uid: string; phones: string[] }> {
  const phones = [...new Set(Array.from({ length: n }, () => uniquePhone()))];
  const created = await call("POST", "/api/v3/broadcasts", {
    token: t.globalToken,
    body: {
      broadcast: {
        name: "Batch writes",
        template: { name: "order_update", language: "en" },
        audience: { phoneNumbers: phones },
        variables: { body: [{ source: "constant", value: "Ana" }] },
        ...(maxPerSecond ? { maxPerSecond } : {}),
      },
    },
  });
  const uid = created.body.data.broadcastUid as string;
  expect((await call("POST", `/api/v3/broadcasts/${uid}/start`, { token: t.globalToken, body: {} })).status).toBe(200);
  return { uid, phones };
}

/** The statements that wrote the broadcast's Message rows: [op, rows written] in order. */
async function statements(uid: string): Promise<[string, number][]> {
  const rows = await db.$queryRawUnsafe<{ op: string; n: number }[]>(
    `SELECT op, n FROM ${fn} WHERE broadcast = $1 ORDER BY op`,
    uid,
  );
  return rows.map((r) => [r.op, r.n]);
}

it("two batches of 20: one INSERT and one UPDATE of the messages per batch, every recipient sent once", async () => {
  const { uid, phones } = await started(40);
  const options = { customerIds: [t.customer.id], batchSize: 20, housekeeping: false, now: () => new Date() };
  expect(await dispatchOnce(options)).toBe(20);
  expect(await statements(uid)).toEqual([
    ["INSERT", 20],
    ["UPDATE", 20],
  ]);
  expect(await dispatchOnce(options)).toBe(20);
  expect(await statements(uid)).toEqual([
    ["INSERT", 20],
    ["INSERT", 20],
    ["UPDATE", 20],
    ["UPDATE", 20],
  ]);
  const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
  expect(recipients.map((r) => r.status)).toEqual(Array(40).fill("accepted"));
  for (const phone of phones) expect(provider.calls.filter((c) => c.to === phone)).toHaveLength(1);
  // Each message joined its contact's conversation, as a single send's does.
  const entries = await db.conversationMessage.count({
    where: { customerId: t.customer.id, messageId: { in: recipients.map((r) => r.messageId as string) } },
  });
  expect(entries).toBe(40);
  const messages = await db.message.findMany({ where: { customerId: t.customer.id, broadcastId: uid } });
  expect(messages.every((m) => m.status === "accepted" && m.providerMessageId && m.attempts === 1)).toBe(true);
});

it("a pause while a batch's calls wait for their slots: the calls not made leave no message and go back to the queue", async () => {
  // Two calls a second: a batch of two, the second call half a second after the first.
  const { uid } = await started(2, 2);
  const first = provider.calls.length;
  const pass = dispatchOnce({ customerIds: [t.customer.id], batchSize: 2, housekeeping: false });
  await expect.poll(() => provider.calls.length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(first);
  expect((await call("POST", `/api/v3/broadcasts/${uid}/pause`, { token: t.globalToken, body: {} })).status).toBe(200);
  await pass;
  const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid }, orderBy: { id: "asc" } });
  expect(recipients.map((r) => r.status).sort()).toEqual(["accepted", "queued"]);
  const withdrawn = recipients.find((r) => r.status === "queued") as (typeof recipients)[number];
  expect(withdrawn).toMatchObject({ messageId: null, attempts: 0 });
  const itsMessage = recipientMessageId(uid, withdrawn.id, 1);
  expect(await db.message.count({ where: { id: itsMessage } })).toBe(0);
  expect(await db.conversationMessage.count({ where: { messageId: itsMessage } })).toBe(0);
  expect(await db.message.count({ where: { customerId: t.customer.id, broadcastId: uid } })).toBe(1);
  expect(provider.calls.length).toBe(first + 1);
});

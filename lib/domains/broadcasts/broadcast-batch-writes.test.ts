// A broadcast writes its messages in groups (docs/broadcasts.md "How it sends"): one INSERT of
// the Message rows of the calls whose slots fall within the next 100 ms, with their
// conversation entries, just before them, and one UPDATE of that group's outcomes as soon as
// its calls have returned (a statement per recipient each way was 58% of a broadcast's
// statements, docs/benchmarks.md "Broadcasts"). Counted by the database itself: a statement
// trigger on "Message" records each statement that wrote this broadcast's rows. A call
// withdrawn while it waits for its slot (the broadcast paused or cancelled) leaves no message
// and touches no conversation; a worker killed after a group was recorded, or after its calls
// but before their outcomes, strands that group only (docs/broadcasts.md "Crashes"), and a
// message row never stands without its thread entry.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startedBroadcast, waitingConversation } from "@/test/broadcast-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { dispatchOnce } from "./dispatcher";
import { recipientMessageId } from "./recipient-message";
import { settleStaleSends } from "./stale-sends";

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
async function started(
  n: number,
  maxPerSecond?: number,
  phones = [...new Set(Array.from({ length: n }, () => uniquePhone()))],
): Promise<{ uid: string; phones: string[] }> {
  return { uid: await startedBroadcast(t.globalToken, phones, { name: "Batch writes", maxPerSecond }), phones };
}

/** The statements that wrote the broadcast's Message rows: [op, rows written] in order. */
async function statements(uid: string): Promise<[string, number][]> {
  const rows = await db.$queryRawUnsafe<{ op: string; n: number }[]>(
    `SELECT op, n FROM ${fn} WHERE broadcast = $1 ORDER BY op`,
    uid,
  );
  return rows.map((r) => [r.op, r.n]);
}

/** Every message of the broadcast has its thread entry (written in the statement that wrote the message). */
async function everyMessageFiled(uid: string): Promise<number> {
  const messages = await db.message.findMany({ where: { broadcastId: uid }, select: { id: true } });
  const entries = await db.conversationMessage.count({ where: { messageId: { in: messages.map((m) => m.id) } } });
  expect(entries).toBe(messages.length);
  return messages.length;
}

it("two batches of 20 on a test clock: one group each, one INSERT and one UPDATE of the messages per batch, every recipient sent once", async () => {
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

it("on the real clock: the messages are written in groups of the calls within 100 ms of their slots, each group's outcomes in one UPDATE", async () => {
  // 40 calls a second: a batch of 40 over a second, a call every 25 ms.
  const { uid, phones } = await started(40, 40);
  expect(await dispatchOnce({ customerIds: [t.customer.id], batchSize: 40, housekeeping: false })).toBe(40);
  const written = await statements(uid);
  const inserts = written.filter(([op]) => op === "INSERT").map(([, n]) => n);
  const updates = written.filter(([op]) => op === "UPDATE").map(([, n]) => n);
  expect(inserts.reduce((a, b) => a + b, 0)).toBe(40);
  // One UPDATE per group, of that group's rows: as many as the INSERTs, of the same sizes.
  expect([...updates].sort((a, b) => a - b)).toEqual([...inserts].sort((a, b) => a - b));
  // Far fewer statements than messages, and never the batch ahead of its calls: a group is the
  // calls within 100 ms of their slots when it is recorded (4 or 5 at 25 ms apart; more when the
  // INSERT before it or its timer ran late on a busy machine, never half the batch).
  expect(inserts.length).toBeGreaterThanOrEqual(4);
  expect(inserts.length).toBeLessThanOrEqual(40 / 3);
  expect(Math.max(...inserts)).toBeLessThan(20);
  for (const phone of phones) expect(provider.calls.filter((c) => c.to === phone)).toHaveLength(1);
  expect(await everyMessageFiled(uid)).toBe(40);
});

/** What a send does to a conversation: its state, thread entries, support replies. */
async function conversationState(id: string) {
  const c = await db.conversation.findUniqueOrThrow({ where: { id } });
  const period = await db.supportPeriod.findFirstOrThrow({ where: { conversationId: id } });
  return {
    status: c.status,
    closedAt: c.closedAt,
    handoffAt: c.handoffAt,
    slaFirstResponseDueAt: c.slaFirstResponseDueAt,
    slaDueAt: c.slaDueAt,
    lastMessagePreview: c.lastMessagePreview,
    entries: await db.conversationMessage.count({ where: { conversationId: id } }),
    replyCount: period.replyCount,
    waitingSince: period.waitingSince,
    responses: await db.supportResponse.count({ where: { periodId: period.id } }),
  };
}

for (const stop of ["pause", "cancel"] as const) {
  it(`a ${stop} while calls wait for their slots: the contacts not called keep their conversations as they were`, async () => {
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    const conversations = await Promise.all(
      phones.map(
        async (p) => (await waitingConversation({ customerId: t.customer.id, senderId: t.sender.id }, p, true)).id,
      ),
    );
    const before = await Promise.all(conversations.map((c) => conversationState(c)));
    // Two calls a second: a batch of three over a second and a half, each call its own group.
    const { uid } = await started(3, 2, phones);
    const first = provider.calls.length;
    const pass = dispatchOnce({ customerIds: [t.customer.id], batchSize: 3, housekeeping: false });
    await expect.poll(() => provider.calls.length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(first);
    expect((await call("POST", `/api/v3/broadcasts/${uid}/${stop}`, { token: t.globalToken, body: {} })).status).toBe(
      200,
    );
    await pass;
    expect(provider.calls.length).toBe(first + 1);
    const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid }, orderBy: { id: "asc" } });
    const called = recipients.filter((r) => r.status === "accepted");
    expect(called).toHaveLength(1);
    const calledPhone = (called[0] as (typeof recipients)[number]).phoneNumber;
    for (const [k, phone] of phones.entries()) {
      const state = await conversationState(conversations[k] as string);
      if (phone === calledPhone) {
        // The call made joined its conversation in its group's statement: reopened, its entry
        // filed; a broadcast's message is no person's reply, so the hand-off, the SLA's response
        // targets and the support period's wait stand (docs/reports.md "Definitions").
        const k0 = before[k] as (typeof before)[number];
        expect(state).toMatchObject({ status: "OPEN", closedAt: null, entries: 1 });
        expect(state).toMatchObject({
          handoffAt: k0.handoffAt,
          slaFirstResponseDueAt: k0.slaFirstResponseDueAt,
          replyCount: 0,
          waitingSince: k0.waitingSince,
          responses: 0,
        });
        continue;
      }
      expect(state).toEqual(before[k]);
      const r = recipients.find((x) => x.phoneNumber === phone) as (typeof recipients)[number];
      expect(r).toMatchObject(
        stop === "pause" ? { status: "queued", messageId: null } : { status: "skipped", skipReason: "cancelled" },
      );
      expect(await db.message.count({ where: { id: recipientMessageId(uid, r.id, 1) } })).toBe(0);
    }
    expect(await db.message.count({ where: { customerId: t.customer.id, broadcastId: uid } })).toBe(1);
  });
}

it("a worker killed after a group was recorded, before its calls: that group only is interrupted, the rest sent once", async () => {
  // 20 calls a second: a group is the calls whose slots fall within 100 ms of its first call's
  // wake-up (paced-calls.ts RECORD_LEAD_MS): 2 or 3, and one more per 50 ms that timer ran late on a
  // busy machine (6 in a CI run of 2026-12-02). At most 10 (a timer 350 ms late); a lead of the whole
  // batch would record all 20 at once.
  const { uid, phones } = await started(20, 20);
  const first = provider.calls.length;
  let stranded: string[] | null = null;
  // The worker stops for good right after its first group's INSERT committed (never resolves).
  void dispatchOnce({
    customerIds: [t.customer.id],
    batchSize: 20,
    housekeeping: false,
    leaseMs: 1_000,
    afterRecord: (ids) => {
      stranded ??= ids;
      return new Promise<void>(() => {});
    },
  });
  await expect.poll(() => stranded, { timeout: 10_000, interval: 5 }).not.toBeNull();
  const group = stranded as unknown as string[];
  expect(group.length).toBeGreaterThanOrEqual(1);
  expect(group.length).toBeLessThanOrEqual(10);
  // Its lease passed: the next pass settles the batch from its messages (stale-sends.ts).
  await settleStaleSends([t.customer.id], new Date(Date.now() + 60_000));
  const settled = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
  const interrupted = settled.filter((r) => r.status === "interrupted");
  expect(interrupted.map((r) => r.messageId).sort()).toEqual([...group].sort());
  expect(settled.filter((r) => r.status === "queued")).toHaveLength(20 - group.length);
  expect(provider.calls.length).toBe(first);
  // The rest of the batch is sent once; the stranded ones never.
  const options = { customerIds: [t.customer.id], batchSize: 20, housekeeping: false, now: () => new Date() };
  expect(await dispatchOnce(options)).toBe(20 - group.length);
  const after = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
  expect(after.filter((r) => r.status === "accepted")).toHaveLength(20 - group.length);
  expect(after.filter((r) => r.status === "interrupted")).toHaveLength(group.length);
  const strandedPhones = new Set(interrupted.map((r) => r.phoneNumber));
  for (const phone of phones)
    expect(provider.calls.filter((c) => c.to === phone)).toHaveLength(strandedPhones.has(phone) ? 0 : 1);
  // The stranded messages were filed in their threads with their rows, as every other.
  expect(await everyMessageFiled(uid)).toBe(20);
});

it("a worker killed after a group's calls, before its outcomes: that group only is interrupted, every other call's outcome is written, nobody is called twice", async () => {
  // 20 calls a second: groups of about two calls, a call every 50 ms (at most 10, as above).
  const { uid, phones } = await started(20, 20);
  const first = provider.calls.length;
  const groups: string[][] = [];
  // The provider takes the fifth call, but its answer never comes back: the worker stops there
  // for that call's group (its outcome UPDATE waits for its last call), while the others go on.
  const send = provider.simulator.sendMessage.bind(provider.simulator);
  let n = 0;
  let hungTo: string | null = null;
  provider.simulator.sendMessage = async (sender, payload, hints) => {
    const outcome = await send(sender, payload, hints);
    n += 1;
    if (n !== 5) return outcome;
    hungTo = `+${payload.to.replace(/^\+/, "")}`;
    return new Promise<never>(() => {});
  };
  try {
    void dispatchOnce({
      customerIds: [t.customer.id],
      batchSize: 20,
      housekeeping: false,
      leaseMs: 1_000,
      afterRecord: async (ids) => {
        groups.push(ids);
      },
    });
    await expect.poll(() => provider.calls.length, { timeout: 10_000, interval: 10 }).toBe(first + 20);
    const messages = async () => db.message.findMany({ where: { broadcastId: uid } });
    const hung = (await messages()).find((m) => m.recipient === hungTo) as { id: string };
    const group = groups.find((g) => g.includes(hung.id)) as string[];
    expect(group.length).toBeGreaterThanOrEqual(1);
    expect(group.length).toBeLessThanOrEqual(10);
    // Every other group's outcomes are written as soon as its calls returned, with the provider's
    // ids (a status callback finds its message), though the batch never finished.
    await expect
      .poll(async () => (await messages()).filter((m) => m.status === "accepted").length, { timeout: 10_000 })
      .toBe(20 - group.length);
    for (const m of await messages()) {
      if (group.includes(m.id)) expect(m).toMatchObject({ status: "sending", providerMessageId: null });
      else expect(m.providerMessageId).toBeTruthy();
    }
    // Its lease passed: the next pass settles the batch from its messages (stale-sends.ts).
    await settleStaleSends([t.customer.id], new Date(Date.now() + 60_000));
    const settled = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
    const interrupted = settled.filter((r) => r.status === "interrupted");
    expect(interrupted.map((r) => r.messageId).sort()).toEqual([...group].sort());
    expect(settled.filter((r) => r.status === "accepted")).toHaveLength(20 - group.length);
    // Nobody is called again: every contact was called once, the stranded ones too, never resent.
    expect(await dispatchOnce({ customerIds: [t.customer.id], housekeeping: false, now: () => new Date() })).toBe(0);
    for (const phone of phones) expect(provider.calls.filter((c) => c.to === phone)).toHaveLength(1);
    expect(await everyMessageFiled(uid)).toBe(20);
  } finally {
    provider.simulator.sendMessage = send;
  }
});

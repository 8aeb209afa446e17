// A start at any size (docs/broadcasts.md "States", issue: a customer with 1,000,000 contacts
// started a broadcast; its INSERT ... SELECT ran 172 s inside a transaction while 20 pause
// calls waited on the row lock, every pooled connection held, and other customers' requests
// stalled). The start makes the broadcast STARTING in a short transaction and its recipients
// in chunks afterwards; here the chunk is small and the request's budget one chunk, so a few
// thousand contacts prove the chunking, a crash between chunks, and state changes that answer
// at once meanwhile.
import { afterEach, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { cancelSweep } from "./cancel-sweep";
import { dispatchOnce } from "./dispatcher";
import { startChunks } from "./materialise";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

const defaults = { start: { ...startChunks }, sweep: { ...cancelSweep } };
let a: Customer;
let other: Customer;

beforeAll(async () => {
  a = await messagingCustomer({ credit: 10_000 });
  other = await messagingCustomer({ credit: 10 });
});

afterEach(() => {
  Object.assign(startChunks, defaults.start);
  Object.assign(cancelSweep, defaults.sweep);
});

const post = (t: Customer, uid: string, action: string) =>
  call("POST", `/api/v3/broadcasts/${uid}/${action}`, { token: t.globalToken, body: {} });

async function book(t: Customer, phones: string[]): Promise<string> {
  const b = await db.contactBook.create({ data: { customerId: t.customer.id, name: `Book ${uniquePhone()}` } });
  await db.contact.createMany({
    data: phones.map((phoneNumber, i) => ({
      customerId: t.customer.id,
      contactBookId: b.id,
      phoneNumber,
      name: `C${i}`,
    })),
    skipDuplicates: true,
  });
  return b.id;
}

async function draft(t: Customer, audience: { contactBookUids: string[]; phoneNumbers?: string[] }): Promise<string> {
  const created = await call("POST", "/api/v3/broadcasts", {
    token: t.globalToken,
    body: {
      broadcast: {
        name: "Large",
        template: { name: "order_update", language: "en" },
        audience: { phoneNumbers: [], ...audience },
        variables: { body: [{ source: "name", default: "there" }] },
      },
    },
  });
  expect(created.status).toBe(201);
  return created.body.data.broadcastUid as string;
}

const statusOf = async (uid: string) => (await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status;
const recipients = (uid: string) => db.broadcastRecipient.count({ where: { broadcastId: uid } });

it("a start makes its recipients in chunks while STARTING, resumed from its cursor after a crash, each number once", async () => {
  const first = Array.from({ length: 2_500 }, () => uniquePhone());
  const second = [...first.slice(0, 300), ...Array.from({ length: 300 }, () => uniquePhone())];
  const listed = [first[5] as string, uniquePhone(), uniquePhone()];
  const uid = await draft(a, { contactBookUids: [await book(a, first), await book(a, second)], phoneNumbers: listed });
  startChunks.chunk = 300;
  startChunks.requestBudgetMs = 0;

  const started = await post(a, uid, "start");
  expect(started.status).toBe(200);
  expect(started.body.data.status).toBe("STARTING");
  // One chunk in the request: at most a chunk per book.
  const afterRequest = await recipients(uid);
  expect(afterRequest).toBeGreaterThan(0);
  expect(afterRequest).toBeLessThanOrEqual(2 * 300);
  const seen = await call("GET", `/api/v3/broadcasts/${uid}`, { token: a.globalToken });
  expect(seen.body.data.status).toBe("STARTING");
  expect(seen.body.data.counts.total).toBe(afterRequest);
  // Neither paused nor started again while STARTING.
  expect((await post(a, uid, "pause")).body).toMatchObject({
    error_code: "BROADCAST_STATE_CONFLICT",
    details: { status: "STARTING" },
  });
  expect((await post(a, uid, "start")).status).toBe(409);

  // A holder that crashed mid-way keeps its lease until it passes: nobody else makes chunks.
  await db.broadcast.update({ where: { id: uid }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
  await dispatchOnce({ customerIds: [a.customer.id] });
  expect(await recipients(uid)).toBe(afterRequest);
  await db.broadcast.update({ where: { id: uid }, data: { lockedUntil: new Date(Date.now() - 1_000) } });
  for (let pass = 0; pass < 40 && (await statusOf(uid)) === "STARTING"; pass++) {
    await dispatchOnce({ customerIds: [a.customer.id], batchSize: 1 });
  }
  expect(["SENDING", "COMPLETED"]).toContain(await statusOf(uid));
  // (uniquePhone may repeat itself in a few thousand draws: the audience is the distinct numbers.)
  const have = new Set(
    (await db.broadcastRecipient.findMany({ where: { broadcastId: uid } })).map((r) => r.phoneNumber),
  );
  expect(have).toEqual(new Set([...first, ...second, ...listed]));
  expect(have.size).toBeGreaterThan(2_790);
  const b = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
  expect(b.startCursor).toBeNull();
  // The listed number that is also in a book is one recipient, with the listed entry's priority.
  expect(await db.broadcastRecipient.count({ where: { broadcastId: uid, phoneNumber: first[5] } })).toBe(1);
  expect((await post(a, uid, "cancel")).status).toBe(200);
}, 120_000);

it("a segment without books whose numbers are only conversations' is made in chunks too", async () => {
  const t = await messagingCustomer({ credit: 1_000 });
  // 900 numbers the account knows only from conversations (no contact in any book).
  await db.$executeRaw`INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "lastMessageAt", "updatedAt")
    SELECT 'conv_seg' || n || ${t.customer.id}, ${t.customer.id}, ${t.sender.id}, '+4917' || lpad(n::text, 9, '0'), now(), now()
      FROM generate_series(1, 900) n`;
  const segment = await call("POST", "/api/v3/segments", {
    token: t.globalToken,
    body: { segment: { name: "Everyone we spoke to", rules: {} } },
  });
  expect(segment.status, JSON.stringify(segment.body)).toBe(201);
  const created = await call("POST", "/api/v3/broadcasts", {
    token: t.globalToken,
    body: {
      broadcast: {
        name: "Conversations",
        template: { name: "order_update", language: "en" },
        audience: { segmentUid: segment.body.data.segmentUid },
        variables: { body: [{ source: "name", default: "there" }] },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const uid = created.body.data.broadcastUid as string;
  startChunks.chunk = 300;
  startChunks.requestBudgetMs = 0;
  expect((await post(t, uid, "start")).status).toBe(200);
  // One chunk in the request (all 900 in one transaction before: the chunks followed contacts only).
  expect(await recipients(uid)).toBe(300);
  for (let pass = 0; pass < 20 && (await statusOf(uid)) === "STARTING"; pass++) {
    await dispatchOnce({ customerIds: [t.customer.id], batchSize: 1 });
  }
  expect(["SENDING", "COMPLETED"]).toContain(await statusOf(uid));
  expect(await recipients(uid)).toBe(900);
  expect((await post(t, uid, "cancel")).status).toBe(200);
}, 120_000);

it("20 state changes during a start answer 200 or 409 at once, another customer's list answers meanwhile, a cancel stops the start", async () => {
  const uid = await draft(a, {
    contactBookUids: [
      await book(
        a,
        Array.from({ length: 3_000 }, () => uniquePhone()),
      ),
    ],
  });
  startChunks.chunk = 200;
  startChunks.requestBudgetMs = 0;
  cancelSweep.chunk = 200;
  expect((await post(a, uid, "start")).body.data.status).toBe("STARTING");

  let starting = true;
  const worker = (async () => {
    while (starting) await dispatchOnce({ customerIds: [a.customer.id], batchSize: 1 });
  })();
  const timed = async <T>(run: () => Promise<T>) => {
    const at = Date.now();
    const result = await run();
    return { result, ms: Date.now() - at };
  };
  const changes = Promise.all(
    Array.from({ length: 20 }, (_, i) => timed(() => post(a, uid, i % 4 === 3 ? "cancel" : "pause"))),
  );
  const reads = Promise.all(
    Array.from({ length: 10 }, () => timed(() => call("GET", "/api/v3/broadcasts", { token: other.globalToken }))),
  );
  const [answers, listed] = await Promise.all([changes, reads]);
  starting = false;
  await worker;
  // The row lock is waited for 2 s at most (then 409); a cancel then skips a chunk or two.
  for (const { result, ms } of answers) {
    expect([200, 409], JSON.stringify(result.body)).toContain(result.status);
    expect(ms).toBeLessThan(4_000);
  }
  for (const { result, ms } of listed) {
    expect(result.status).toBe(200);
    expect(ms).toBeLessThan(4_000);
  }
  expect(answers.some((x) => x.result.status === 200 && x.result.body.data.status === "CANCELLED")).toBe(true);
  expect(await statusOf(uid)).toBe("CANCELLED");
  // The start stops at its next chunk; what it made is skipped, nothing queued or sent.
  for (
    let pass = 0;
    pass < 40 && (await db.broadcastRecipient.count({ where: { broadcastId: uid, status: "queued" } })) > 0;
    pass++
  ) {
    await dispatchOnce({ customerIds: [a.customer.id] });
  }
  const made = await recipients(uid);
  expect(made).toBeLessThan(3_000);
  expect(
    await db.broadcastRecipient.count({ where: { broadcastId: uid, status: "skipped", skipReason: "cancelled" } }),
  ).toBe(made);
  await dispatchOnce({ customerIds: [a.customer.id] });
  expect(await recipients(uid)).toBe(made);
  expect(await db.message.count({ where: { broadcastId: uid } })).toBe(0);
}, 120_000);

// The limits a broadcast keeps (docs/broadcasts.md "The limits"), each with the clock held
// by the test (the real one where calls are held to their slots): the sender's send slots and
// the broadcasts' 80% share, each call at its slot, maxPerSecond, the
// pair rate, the messaging limit (pause with resumesAt, resume by itself), the provider's
// 130429 retried without counting as a failure, and two workers on one broadcast sending
// nobody twice.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { mostInAnyWindow } from "@/lib/domains/provider/sliding-window";
import { AHEAD_MS, spacingMs } from "@/lib/domains/senders/pacing";
import { countOtherSend, takeSlots } from "@/lib/domains/senders/rate-bucket";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { claim } from "./claiming";
import { dispatchOnce } from "./dispatcher";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let c: Customer;

async function broadcastTo(phones: string[], over: Record<string, unknown> = {}, senderId?: string) {
  const book = await db.contactBook.create({ data: { customerId: c.customer.id, name: `B ${uniquePhone()}` } });
  await db.contact.createMany({
    data: phones.map((phoneNumber, i) => ({
      customerId: c.customer.id,
      contactBookId: book.id,
      phoneNumber,
      name: `C${i}`,
    })),
  });
  const res = await call("POST", "/api/v3/broadcasts", {
    token: c.globalToken,
    body: {
      ...(senderId ? { senderId } : {}),
      broadcast: {
        name: "Limits",
        template: { name: "order_update", language: "en" },
        audience: { contactBookUids: [book.id] },
        variables: { body: [{ source: "name" }] },
        ...over,
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const uid = res.body.data.broadcastUid as string;
  const started = await call("POST", `/api/v3/broadcasts/${uid}/start`, { token: c.globalToken, body: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return uid;
}

const sentCount = (uid: string) => db.message.count({ where: { broadcastId: uid } });
const phonesOf = (n: number) => Array.from({ length: n }, () => uniquePhone());

beforeAll(async () => {
  c = await messagingCustomer({ credit: 1000 });
});

describe("the sender's send slots", () => {
  it("hands out a sender's slots once, across callers, no further ahead than AHEAD_MS; later takes follow them", async () => {
    const key = `test:${uniquePhone()}`;
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const sp = spacingMs(10);
    const ahead = Math.ceil(AHEAD_MS / sp);
    const got = await Promise.all([0, 1, 2].map(() => takeSlots(key, ahead, { perSecond: 10, broadcast: false, now })));
    expect(got.reduce((a, r) => a + r.granted, 0)).toBe(ahead);
    const firsts = got.map((r) => r.firstAt).sort((x, y) => x - y);
    expect(firsts[0]).toBe(now);
    expect((await takeSlots(key, 50, { perSecond: 10, broadcast: false, now: now + 100 })).granted).toBe(
      Math.ceil((100 + AHEAD_MS - ahead * sp) / sp),
    );
    const later = await takeSlots(key, 50, { perSecond: 10, broadcast: false, now: now + 1000 });
    expect(later.firstAt).toBeCloseTo(now + (ahead + Math.ceil((100 + AHEAD_MS - ahead * sp) / sp)) * sp, 6);
  });

  it("a broadcast takes at most 80% of the pace while other sends of the sender are seen", async () => {
    const key = `test:${uniquePhone()}`;
    const now = Date.UTC(2026, 10, 26, 12, 0, 10);
    expect((await takeSlots(key, 100, { perSecond: 10, broadcast: true, now })).spacingMs).toBeCloseTo(spacingMs(10));
    const key2 = `test:${uniquePhone()}`;
    await countOtherSend({ id: key2, throughputPerSecond: 10 }, now);
    const shared = await takeSlots(key2, 100, { perSecond: 10, broadcast: true, now });
    expect(shared.spacingMs).toBeCloseTo(spacingMs(10, 0.8));
    expect(shared.granted).toBe(Math.ceil((AHEAD_MS - spacingMs(10)) / spacingMs(10, 0.8)));
  });
});

/** The times the provider saw calls from the sender, while `run` runs. */
async function callTimes(senderId: string, run: () => Promise<void>): Promise<number[]> {
  const sender = await db.sender.findUniqueOrThrow({ where: { id: senderId } });
  const sim = getSimulator();
  if (!sim) throw new Error("the simulator is the provider in tests");
  const times: number[] = [];
  // When the call reached the provider (its own checks then take their time, a database read).
  const send = sim.sendMessage;
  sim.sendMessage = (s, payload, hints) => {
    if (s.phoneNumberId === sender.phoneNumberId) times.push(Date.now());
    return send.call(sim, s, payload, hints);
  };
  try {
    await run();
  } finally {
    sim.sendMessage = send;
  }
  return times.sort((x, y) => x - y);
}

async function sendAll(uid: string) {
  for (let i = 0; i < 200; i++) {
    await dispatchOnce({ customerIds: [c.customer.id] });
    if ((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status !== "SENDING") return;
  }
}

describe("pacing a broadcast", () => {
  it("makes each call at its slot: no 1,000 ms holds more than the sender's throughput", async () => {
    await db.sender.update({ where: { id: c.otherSender.id }, data: { throughputPerSecond: 8 } });
    const uid = await broadcastTo(phonesOf(14), {}, c.otherSender.phoneNumber);
    const times = await callTimes(c.otherSender.id, () => sendAll(uid));
    expect(times).toHaveLength(14);
    expect(mostInAnyWindow(times)).toBeLessThanOrEqual(8);
    // Paced, not 8 at the start of each clock second: 14 calls take at least 13 slots.
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThan(12 * spacingMs(8));
  });

  it("maxPerSecond paces one broadcast below the sender's throughput", async () => {
    const uid = await broadcastTo(phonesOf(5), { maxPerSecond: 4 });
    const times = await callTimes(c.sender.id, () => sendAll(uid));
    expect(times).toHaveLength(5);
    // As the sender's pace above: no second holds more than 4, and the 5 calls span their 4
    // slots (a call made late by a busy machine brings the next one closer than 250 ms to it,
    // never earlier than its slot; the sender's own 80/s would make them all within ~60 ms).
    expect(mostInAnyWindow(times)).toBeLessThanOrEqual(4);
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThan(3 * spacingMs(4));
  });

  it("spaces two broadcasts to one contact by the pair interval instead of dropping one", async () => {
    const shared = uniquePhone();
    const first = await broadcastTo([shared]);
    // The recipients' sendingAt is the real time of the send: the clock moves from there.
    await dispatchOnce({ customerIds: [c.customer.id] });
    expect(await sentCount(first)).toBe(1);
    const second = await broadcastTo([shared]);
    await dispatchOnce({ customerIds: [c.customer.id] });
    expect(await sentCount(second)).toBe(0);
    const afterPair = () => new Date(Date.now() + 7_000);
    await dispatchOnce({ customerIds: [c.customer.id], now: afterPair });
    expect(await sentCount(second)).toBe(1);
  });
});

describe("the pair rate across the sender's broadcasts", () => {
  it("a contact claimed by one broadcast is not claimed by another until that claim is sent or let go", async () => {
    const shared = uniquePhone();
    const [onlyA, onlyB] = [uniquePhone(), uniquePhone()];
    const a = await broadcastTo([shared, onlyA]);
    const b = await broadcastTo([shared, onlyB]);
    const [rowA, rowB] = await Promise.all(
      [a, b].map((id) => db.broadcast.findUniqueOrThrow({ where: { id }, select: { id: true, senderId: true } })),
    );
    const t0 = new Date(Date.UTC(2027, 0, 3, 0, 0, 0));
    const at = (ms: number) => ({ now: () => new Date(t0.getTime() + ms), leaseMs: 30_000 });
    // A claims both of its contacts (waiting for its tokens, not yet sending); B, claiming
    // now, leaves the shared contact to later instead of messaging them a second time.
    expect((await claim(rowA as never, 10, at(0))).map((r) => r.phoneNumber).sort()).toEqual([shared, onlyA].sort());
    expect((await claim(rowB as never, 10, at(100))).map((r) => r.phoneNumber)).toEqual([onlyB]);
    // Two claims at once for the two broadcasts: the contact goes to one of them.
    const c2 = uniquePhone();
    const [a2, b2] = await Promise.all([broadcastTo([c2]), broadcastTo([c2])]);
    const rows = await Promise.all(
      [a2, b2].map((id) => db.broadcast.findUniqueOrThrow({ where: { id }, select: { id: true, senderId: true } })),
    );
    const both = await Promise.all(rows.map((r) => claim(r as never, 10, at(200))));
    expect(both.flat().map((r) => r.phoneNumber)).toEqual([c2]);
    // Once A's lease has run out without a send, B may take the contact (and its own again).
    expect((await claim(rowB as never, 10, at(31_000))).map((r) => r.phoneNumber).sort()).toEqual(
      [shared, onlyB].sort(),
    );
  });
});

describe("the messaging limit", () => {
  it("pauses at the tier with resumesAt, and resumes by itself when the oldest contact leaves the 24 hours", async () => {
    const t = await messagingCustomer({ credit: 1000 });
    const prev = c;
    c = t;
    try {
      await db.sender.update({ where: { id: t.sender.id }, data: { messagingLimit: 2 } });
      const uid = await broadcastTo(phonesOf(4));
      await dispatchOnce({ customerIds: [t.customer.id] });
      const paused = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
      expect(paused).toMatchObject({ status: "PAUSED", pauseReason: "messaging_limit" });
      expect(await sentCount(uid)).toBe(2);
      const resumesAt = paused.resumesAt as Date;
      expect(resumesAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
      // Before resumesAt nothing moves; after it the broadcast resumes and sends the rest.
      await dispatchOnce({ customerIds: [t.customer.id], now: () => new Date(resumesAt.getTime() - 60_000) });
      expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("PAUSED");
      const later = () => new Date(resumesAt.getTime() + 60_000);
      for (let i = 0; i < 5 && (await sentCount(uid)) < 4; i++) {
        await dispatchOnce({ customerIds: [t.customer.id], now: later });
      }
      expect(await sentCount(uid)).toBe(4);
    } finally {
      c = prev;
    }
  });
});

describe("provider refusals", () => {
  it("retries 130429 after its wait without counting a failure", async () => {
    const sim = getSimulator();
    expect(sim).toBeDefined();
    const sender = await db.sender.findUniqueOrThrow({ where: { id: c.sender.id } });
    // The provider takes one message per second from this number; the service thinks 80.
    sim?.limits.setThroughput(sender.phoneNumberId as string, 1);
    try {
      const uid = await broadcastTo(phonesOf(3));
      // The passes run on a test clock, 1.1 s apart, but the simulator's limit counts real
      // seconds: the third message can be taken 2 s after the first at the soonest, whatever the
      // number of passes a fast machine makes by then. So the passes go on for up to 20 s.
      const until = Date.now() + 20_000;
      for (let i = 0; Date.now() < until; i++) {
        await dispatchOnce({ customerIds: [c.customer.id], now: () => new Date(Date.now() + i * 1100) });
        const b = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
        if (b.status === "COMPLETED") break;
      }
      const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
      expect(recipients.map((r) => r.status).sort()).toEqual(["accepted", "accepted", "accepted"]);
    } finally {
      sim?.limits.setThroughput(sender.phoneNumberId as string, undefined);
    }
  });
});

describe("several workers", () => {
  it("two workers on one broadcast send nobody twice", async () => {
    const phones = phonesOf(120);
    const uid = await broadcastTo(phones);
    const worker = async () => {
      for (let i = 0; i < 100; i++) {
        await dispatchOnce({ customerIds: [c.customer.id], batchSize: 7 });
        const b = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
        if (b.status !== "SENDING") return;
      }
    };
    await Promise.all([worker(), worker()]);
    const messages = await db.message.findMany({ where: { broadcastId: uid }, select: { recipient: true } });
    expect(messages).toHaveLength(120);
    expect(new Set(messages.map((m) => m.recipient)).size).toBe(120);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("COMPLETED");
  });
});

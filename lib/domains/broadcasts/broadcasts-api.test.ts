// Broadcasts through the real router and the real dispatcher (docs/broadcasts.md): create,
// preview, estimate and the balance check, start and the recipients (unique numbers, skipped
// reasons), sending to COMPLETED, every state change and conflict, scheduling, and tenant
// and sender isolation of every route.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { CHANNELS } from "@/lib/db/wakeups";
import { payloadEntries } from "@/lib/domains/webhooks/catalog";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, createTestCustomer, type TestCustomer, uniquePhone } from "@/test/factory";
import { addTemplate, messagingCustomer } from "@/test/messaging-fixtures";
import { otherConnection } from "@/test/other-connection";
import { dispatchOnce } from "./dispatcher";
import { recipientMessageId } from "./recipient-message";
import { startBroadcastWorker } from "./worker";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

const PUBLIC_FIELDS = [
  "audience",
  "broadcastUid",
  "cost",
  "counts",
  "completedAt",
  "createdAt",
  "estimate",
  "maxPerSecond",
  "name",
  "pauseReason",
  "phoneNumberId",
  "resumesAt",
  "scheduledAt",
  "senderId",
  "startedAt",
  "status",
  "template",
  "uid",
  "updatedAt",
  "variables",
].sort();

async function book(customerId: string, contacts: { phoneNumber: string; name?: string | null; tier?: string }[]) {
  const b = await db.contactBook.create({ data: { customerId, name: `Book ${uniquePhone()}` } });
  await db.contact.createMany({
    data: contacts.map((c) => ({
      customerId,
      contactBookId: b.id,
      phoneNumber: c.phoneNumber,
      name: c.name ?? null,
      customFields: c.tier ? { tier: c.tier } : {},
    })),
  });
  return b.id;
}

const draft = (bookIds: string[], over: Record<string, unknown> = {}) => ({
  name: "Spring sale",
  template: { name: "spring_sale", language: "en" },
  audience: { contactBookUids: bookIds },
  variables: { body: [{ source: "name" }] },
  ...over,
});

const create = (token: string, broadcast: unknown, extra: Record<string, unknown> = {}, version = "v3") =>
  call("POST", `/api/${version}/broadcasts`, { token, body: { broadcast, ...extra } });
const post = (token: string, uid: string, action: string, body: Record<string, unknown> = {}) =>
  call("POST", `/api/v3/broadcasts/${uid}${action ? `/${action}` : ""}`, { token, body });
const read = async (token: string, uid: string) =>
  (await call("GET", `/api/v3/broadcasts/${uid}`, { token })).body.data;

/** Runs dispatcher passes for this customer until the broadcast leaves SENDING. */
async function sendAll(customerId: string, uid: string, now?: () => Date) {
  for (let i = 0; i < 200; i++) {
    await dispatchOnce({ customerIds: [customerId], ...(now ? { now } : {}) });
    const b = await db.broadcast.findUniqueOrThrow({ where: { id: uid } });
    if (b.status !== "SENDING") return b;
  }
  throw new Error("broadcast did not finish");
}

let a: Customer;
let b: TestCustomer;
let bookA: string;
let bookB: string;
const ada = uniquePhone();
const bob = uniquePhone();
const nameless = uniquePhone();
const banned = uniquePhone();

beforeAll(async () => {
  [a, b] = await Promise.all([messagingCustomer({ credit: 100 }), createTestCustomer()]);
  bookA = await book(a.customer.id, [
    { phoneNumber: ada, name: "Ada", tier: "gold" },
    { phoneNumber: bob, name: "Bob", tier: "silver" },
    { phoneNumber: nameless, name: null, tier: "gold" },
    { phoneNumber: banned, name: "Banned", tier: "gold" },
    { phoneNumber: "12345", name: "Bad number", tier: "gold" },
  ]);
  // Ada again in a second book: messaged once.
  bookB = await book(a.customer.id, [{ phoneNumber: ada, name: "Ada B" }]);
  await db.blacklistEntry.create({ data: { customerId: a.customer.id, senderId: a.sender.id, phoneNumber: banned } });
  await db.rateCard.upsert({
    where: { scope_pricingCategory: { scope: a.customer.id, pricingCategory: "marketing" } },
    create: { scope: a.customer.id, customerId: a.customer.id, pricingCategory: "marketing", rate: 0.05 },
    update: { rate: 0.05 },
  });
});

describe("create, read, list", () => {
  it("creates a DRAFT with exactly the public fields on v2 and v3, reads and lists it", async () => {
    for (const version of ["v2", "v3"]) {
      const res = await create(a.globalToken, draft([bookA]), {}, version);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const bc = res.body.data;
      expect(Object.keys(bc).sort()).toEqual(PUBLIC_FIELDS);
      expect(bc).toMatchObject({
        status: "DRAFT",
        senderId: a.sender.phoneNumber,
        template: { name: "spring_sale", language: "en", category: "MARKETING" },
        counts: { total: 0 },
        estimate: null,
      });
      expect(bc.uid).toBe(bc.broadcastUid);
      const again = await call("GET", `/api/${version}/broadcasts/${bc.broadcastUid}`, { token: a.globalToken });
      expect(again.status).toBe(200);
      expect(again.body.data.broadcastUid).toBe(bc.broadcastUid);
    }
    const list = await call("GET", "/api/v3/broadcasts?status=DRAFT", { token: a.globalToken });
    expect(list.status).toBe(200);
    expect(list.body.data.broadcasts.length).toBeGreaterThanOrEqual(2);
    expect(list.body.data.items).toEqual(list.body.data.broadcasts);
    expect(list.body.data.broadcasts.every((x: { status: string }) => x.status === "DRAFT")).toBe(true);
  });

  it("replays a create with the same Idempotency-Key instead of making a second broadcast", async () => {
    const key = `bc-${uniquePhone()}`;
    const headers = { "Idempotency-Key": key };
    const first = await call("POST", "/api/v3/broadcasts", {
      token: a.globalToken,
      headers,
      body: { broadcast: draft([bookA], { name: "Once" }) },
    });
    const second = await call("POST", "/api/v3/broadcasts", {
      token: a.globalToken,
      headers,
      body: { broadcast: draft([bookA], { name: "Once" }) },
    });
    expect(first.status).toBe(201);
    expect(second.body.data.broadcastUid).toBe(first.body.data.broadcastUid);
    expect(await db.broadcast.count({ where: { customerId: a.customer.id, name: "Once" } })).toBe(1);
  });

  it("refuses a template parameter without a mapping, and an unknown template", async () => {
    const res = await create(a.globalToken, draft([bookA], { variables: { body: [] } }));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields[0].path).toBe("body.broadcast.variables.body");
    const missing = await create(a.globalToken, draft([bookA], { template: { name: "nope", language: "en" } }));
    expect(missing.body.error_code).toBe("TEMPLATE_NOT_FOUND");
  });

  it("refuses a scheduledAt more than a year ahead on create, update and start, naming the field", async () => {
    const far = "9999-12-31T00:00:00Z";
    const inAYear = new Date(Date.now() + 360 * 86_400_000).toISOString();
    const refused = await create(a.globalToken, draft([bookA], { scheduledAt: far }));
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("VALIDATION_FAILED");
    expect(refused.body.details.fields).toEqual([
      expect.objectContaining({ path: "body.broadcast.scheduledAt", message: expect.stringMatching(/days ahead/) }),
    ]);
    const made = await create(a.globalToken, draft([bookA], { scheduledAt: inAYear }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const uid = made.body.data.broadcastUid as string;
    const update = await post(a.globalToken, uid, "", { broadcast: { scheduledAt: far } });
    expect(update.status).toBe(400);
    expect(update.body.details.fields[0].path).toBe("body.broadcast.scheduledAt");
    const start = await post(a.globalToken, uid, "start", { scheduledAt: far });
    expect(start.status).toBe(400);
    expect(start.body.details.fields[0].path).toBe("body.scheduledAt");
    expect((await read(a.globalToken, uid)).status).toBe("DRAFT");
  });
});

describe("preview, estimate and start", () => {
  it("previews unique numbers, skipped by reason, the estimate and rendered samples; sends nothing", async () => {
    const bc = (await create(a.globalToken, draft([bookA, bookB]))).body.data;
    const res = await post(a.globalToken, bc.broadcastUid, "preview");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // ada (once), bob; nameless has no name and no default; banned; 12345 invalid.
    expect(res.body.data.skippedByReason).toEqual({ blacklisted: 1, invalid_number: 1, missing_variable: 1 });
    expect(res.body.data.estimate).toMatchObject({ recipients: 2, skipped: 3, cost: 0.1, currency: "USD" });
    const texts = res.body.data.samples.map((s: { text: string }) => s.text).sort();
    expect(texts).toEqual(["Hello Ada", "Hello Bob"]);
    expect(await db.broadcastRecipient.count({ where: { broadcastId: bc.broadcastUid } })).toBe(0);
  });

  it("a default fills a missing value, and filters narrow the books", async () => {
    const bc = (
      await create(
        a.globalToken,
        draft([bookA], {
          audience: { contactBookUids: [bookA], filters: [{ field: "tier", op: "eq", value: "gold" }] },
          variables: { body: [{ source: "name", default: "friend" }] },
        }),
      )
    ).body.data;
    const res = await post(a.globalToken, bc.broadcastUid, "preview");
    // gold: ada, nameless (default), banned (blacklisted), 12345 (invalid).
    expect(res.body.data.estimate.recipients).toBe(2);
    expect(res.body.data.samples.map((s: { text: string }) => s.text).sort()).toEqual(["Hello Ada", "Hello friend"]);
  });

  it("refuses a start the balance does not cover with 402 and details, and changes nothing", async () => {
    const poor = await messagingCustomer({ credit: 0 });
    await db.rateCard.upsert({
      where: { scope_pricingCategory: { scope: poor.customer.id, pricingCategory: "marketing" } },
      create: { scope: poor.customer.id, customerId: poor.customer.id, pricingCategory: "marketing", rate: 0.05 },
      update: {},
    });
    const bookP = await book(poor.customer.id, [{ phoneNumber: uniquePhone(), name: "Zoe" }]);
    const bc = (await create(poor.globalToken, draft([bookP]))).body.data;
    const res = await post(poor.globalToken, bc.broadcastUid, "start");
    expect(res.status).toBe(402);
    expect(res.body.error_code).toBe("INSUFFICIENT_BALANCE");
    expect(res.body.details).toMatchObject({ estimate: 0.05, balance: 0, currency: "USD" });
    expect((await read(poor.globalToken, bc.broadcastUid)).status).toBe("DRAFT");
    expect(await db.broadcastRecipient.count({ where: { broadcastId: bc.broadcastUid } })).toBe(0);
  });

  it("starts: one recipient per unique number, skipped with reasons, sends each once to COMPLETED", async () => {
    const bc = (await create(a.globalToken, draft([bookA, bookB]))).body.data;
    const started = await post(a.globalToken, bc.broadcastUid, "start");
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.status).toBe("SENDING");
    expect(started.body.data.estimate).toMatchObject({ recipients: 2, skipped: 3 });
    expect(started.body.data.counts).toMatchObject({ total: 5, queued: 2, skipped: 3 });
    const skipped = await call("GET", `/api/v3/broadcasts/${bc.broadcastUid}/recipients?status=skipped`, {
      token: a.globalToken,
    });
    expect(skipped.body.data.recipients.map((r: { skipReason: string }) => r.skipReason).sort()).toEqual([
      "blacklisted",
      "invalid_number",
      "missing_variable",
    ]);
    const done = await sendAll(a.customer.id, bc.broadcastUid);
    expect(done.status).toBe("COMPLETED");
    const messages = await db.message.findMany({ where: { broadcastId: bc.broadcastUid } });
    expect(messages.map((m) => m.recipient).sort()).toEqual([ada, bob].sort());
    const final = await read(a.globalToken, bc.broadcastUid);
    expect(final.counts).toMatchObject({ total: 5, queued: 0, sending: 0, skipped: 3 });
    expect(final.counts.accepted + final.counts.sent + final.counts.delivered + final.counts.read).toBe(2);
    const events = await db.webhookEvent.findMany({
      where: { customerId: a.customer.id, type: { startsWith: "broadcast." } },
      select: { type: true, payload: true },
    });
    const mine = events.filter(
      (e) => (e.payload as { data: { broadcastUid: string } }).data.broadcastUid === bc.broadcastUid,
    );
    expect(mine.map((e) => e.type).sort()).toEqual(["broadcast.completed", "broadcast.started"]);
    // Each body fits the catalog's published schema.
    const entries = payloadEntries();
    for (const e of mine) expect(entries[e.type]?.schema.safeParse(e.payload).success, e.type).toBe(true);
    const accepted = await db.webhookEvent.findMany({
      where: { customerId: a.customer.id, type: "message.status.accepted" },
      select: { payload: true },
    });
    const ofBroadcast = accepted.filter(
      (e) => (e.payload as { data: { broadcastUid?: string } }).data.broadcastUid === bc.broadcastUid,
    );
    expect(ofBroadcast).toHaveLength(2);
    // v3 reports filter by and show broadcastUid; v2 has neither.
    const report = await call("GET", "/api/v3/reports/messages", {
      token: a.globalToken,
      query: { broadcastUid: bc.broadcastUid },
    });
    expect(report.status).toBe(200);
    expect(report.body.data.messages.map((m: { recipient: string }) => m.recipient).sort()).toEqual([ada, bob].sort());
    expect(report.body.data.messages.every((m: { broadcastUid: string }) => m.broadcastUid === bc.broadcastUid)).toBe(
      true,
    );
    const v2 = await call("GET", "/api/v2/reports/messages", { token: a.globalToken });
    expect(v2.body.data.messages.every((m: object) => !("broadcastUid" in m))).toBe(true);
    // start again: COMPLETED is a conflict naming the status.
    const again = await post(a.globalToken, bc.broadcastUid, "start");
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: "BROADCAST_STATE_CONFLICT", details: { status: "COMPLETED" } });
  });
});

describe("state changes", () => {
  it("pause and resume are idempotent; update once SENDING and resume once CANCELLED are conflicts", async () => {
    const bc = (await create(a.globalToken, draft([bookA]))).body.data;
    const uid = bc.broadcastUid;
    expect((await post(a.globalToken, uid, "pause")).body).toMatchObject({
      error_code: "BROADCAST_STATE_CONFLICT",
      details: { status: "DRAFT" },
    });
    expect((await post(a.globalToken, uid, "start")).body.data.status).toBe("SENDING");
    expect((await post(a.globalToken, uid, "", { broadcast: { name: "Late" } })).status).toBe(409);
    expect((await post(a.globalToken, uid, "start")).status).toBe(409);
    for (let i = 0; i < 2; i++) {
      const paused = await post(a.globalToken, uid, "pause");
      expect(paused.status).toBe(200);
      expect(paused.body.data).toMatchObject({ status: "PAUSED", pauseReason: null });
    }
    // Paused: the dispatcher sends nothing.
    await dispatchOnce({ customerIds: [a.customer.id] });
    expect(await db.message.count({ where: { broadcastId: uid } })).toBe(0);
    for (let i = 0; i < 2; i++) expect((await post(a.globalToken, uid, "resume")).body.data.status).toBe("SENDING");
    for (let i = 0; i < 2; i++) {
      const cancelled = await post(a.globalToken, uid, "cancel");
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.status).toBe("CANCELLED");
    }
    const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid, status: "skipped" } });
    expect(recipients.filter((r) => r.skipReason === "cancelled")).toHaveLength(2);
    expect((await post(a.globalToken, uid, "resume")).body).toMatchObject({
      error_code: "BROADCAST_STATE_CONFLICT",
      details: { status: "CANCELLED" },
    });
    expect((await post(a.globalToken, uid, "start")).status).toBe(409);
  });

  it("updates a DRAFT (at least one field)", async () => {
    const bc = (await create(a.globalToken, draft([bookA]))).body.data;
    const res = await post(a.globalToken, bc.broadcastUid, "", { broadcast: { name: "Renamed", maxPerSecond: 5 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Renamed", maxPerSecond: 5 });
    expect((await post(a.globalToken, bc.broadcastUid, "", { broadcast: {} })).status).toBe(400);
  });

  it("schedules, and the dispatcher starts it once scheduledAt is reached", async () => {
    const bc = (await create(a.globalToken, draft([bookA]))).body.data;
    const at = new Date(Date.now() + 60 * 60_000);
    const res = await post(a.globalToken, bc.broadcastUid, "start", { scheduledAt: at.toISOString() });
    expect(res.body.data).toMatchObject({ status: "SCHEDULED", scheduledAt: at.toISOString() });
    await dispatchOnce({ customerIds: [a.customer.id] });
    expect((await read(a.globalToken, bc.broadcastUid)).status).toBe("SCHEDULED");
    const later = () => new Date(at.getTime() + 1000);
    await dispatchOnce({ customerIds: [a.customer.id], now: later });
    const started = await db.broadcast.findUniqueOrThrow({ where: { id: bc.broadcastUid } });
    expect(started.status).not.toBe("SCHEDULED");
    expect(started.startedAt?.getTime()).toBe(later().getTime());
  });

  it("refuses a start while the template is not approved, leaving the DRAFT", async () => {
    await addTemplate(a.customer.id, { name: "pending_one", category: "MARKETING", status: "PENDING" });
    const bc = (await create(a.globalToken, draft([bookA], { template: { name: "pending_one", language: "en" } }))).body
      .data;
    const res = await post(a.globalToken, bc.broadcastUid, "start");
    expect(res.body.error_code).toBe("TEMPLATE_NOT_APPROVED");
    expect((await read(a.globalToken, bc.broadcastUid)).status).toBe("DRAFT");
  });
});

describe("isolation", () => {
  it("another customer's or another sender's broadcast is BROADCAST_NOT_FOUND on every route", async () => {
    const bc = (await create(a.globalToken, draft([bookA]), { senderId: a.otherSender.phoneNumber })).body.data;
    const uid = bc.broadcastUid;
    const routes: [string, string, Record<string, unknown>?][] = [
      ["GET", ""],
      ["GET", "/recipients"],
      ["POST", "", { broadcast: { name: "x" } }],
      ["POST", "/preview", {}],
      ["POST", "/start", {}],
      ["POST", "/pause", {}],
      ["POST", "/resume", {}],
      ["POST", "/cancel", {}],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [b.globalToken, a.scopedToken]) {
        const res = await call(method, `/api/v3/broadcasts/${uid}${path}`, { token, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error_code).toBe("BROADCAST_NOT_FOUND");
      }
    }
    const list = await call("GET", "/api/v3/broadcasts", { token: a.scopedToken });
    expect(list.body.data.broadcasts.some((x: { broadcastUid: string }) => x.broadcastUid === uid)).toBe(false);
    expect((await read(a.globalToken, uid)).status).toBe("DRAFT");
  });

  it("refuses another customer's contact book", async () => {
    const res = await create(b.globalToken, draft([bookA], { template: { name: "spring_sale", language: "en" } }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await db.broadcast.count({ where: { customerId: b.customer.id } })).toBe(0);
  });
});

describe("audit log", () => {
  it("records who started and cancelled a broadcast, in the change's transaction; a refused change records nothing", async () => {
    const bookQ = await book(a.customer.id, [{ phoneNumber: uniquePhone(), name: "Quinn" }]);
    const bc = (await create(a.globalToken, draft([bookQ]))).body.data;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await post(a.globalToken, bc.broadcastUid, "start", { scheduledAt: later })).status).toBe(200);
    expect((await post(a.globalToken, bc.broadcastUid, "cancel")).status).toBe(200);
    // A second start of a cancelled broadcast is a conflict: no entry for it.
    expect((await post(a.globalToken, bc.broadcastUid, "start")).status).toBe(409);
    const entries = await db.auditEvent.findMany({
      where: { customerId: a.customer.id, targetUid: bc.broadcastUid },
      orderBy: { createdAt: "asc" },
    });
    expect(entries.map((e) => [e.action, e.actorType])).toEqual([
      ["broadcast.started", "api_token"],
      ["broadcast.cancelled", "api_token"],
    ]);
    expect(entries[0]?.details).toMatchObject({ scheduledAt: later });
    expect(entries[1]?.details).toMatchObject({ previousStatus: "SCHEDULED" });
  });
});

describe("while sending", () => {
  it("tells the open dashboards its progress, up to COMPLETED with every recipient counted", async () => {
    const one = uniquePhone();
    const two = uniquePhone();
    const bookP = await book(a.customer.id, [
      { phoneNumber: one, name: "One" },
      { phoneNumber: two, name: "Two" },
    ]);
    const bc = (await create(a.globalToken, draft([bookP]))).body.data;
    await otherConnection(async (client) => {
      const heard: { kind: string; broadcastUid?: string; status?: string; total?: number; sent?: number }[] = [];
      client.on("notification", (n) => {
        // The embedded database's socket copies every channel's notifications to every
        // connection (lib/db/pglite-queue.ts): only the live channel's are read here. A throw
        // in this handler would end the client's reading of the rest of that data.
        if (n.channel !== CHANNELS.live) return;
        // The live channel's payload: {c: customerId, e: events} (lib/domains/live/publish.ts).
        const { e } = JSON.parse(n.payload ?? "{}") as { e?: typeof heard };
        heard.push(...(e ?? []).filter((x) => x.broadcastUid === bc.broadcastUid));
      });
      await client.query(`LISTEN ${CHANNELS.live}`);
      await post(a.globalToken, bc.broadcastUid, "start");
      await sendAll(a.customer.id, bc.broadcastUid);
      await vi.waitFor(() =>
        expect(heard.at(-1)).toMatchObject({ kind: "broadcast.progress", status: "COMPLETED", total: 2, sent: 2 }),
      );
    });
  });

  it("checks the blacklist again at each send", async () => {
    const late = uniquePhone();
    const bookL = await book(a.customer.id, [{ phoneNumber: late, name: "Late" }]);
    const bc = (await create(a.globalToken, draft([bookL]))).body.data;
    await post(a.globalToken, bc.broadcastUid, "start");
    await db.blacklistEntry.create({ data: { customerId: a.customer.id, senderId: a.sender.id, phoneNumber: late } });
    await sendAll(a.customer.id, bc.broadcastUid);
    const [r] = await db.broadcastRecipient.findMany({ where: { broadcastId: bc.broadcastUid } });
    expect(r).toMatchObject({ status: "skipped", skipReason: "blacklisted" });
    expect(await db.message.count({ where: { broadcastId: bc.broadcastUid } })).toBe(0);
  });

  it("pauses with insufficient_balance when the balance runs out mid-broadcast", async () => {
    const c = await messagingCustomer({ credit: 1 });
    await db.rateCard.upsert({
      where: { scope_pricingCategory: { scope: c.customer.id, pricingCategory: "marketing" } },
      create: { scope: c.customer.id, customerId: c.customer.id, pricingCategory: "marketing", rate: 0.5 },
      update: {},
    });
    const bookC = await book(c.customer.id, [{ phoneNumber: uniquePhone(), name: "Kim" }]);
    const bc = (await create(c.globalToken, draft([bookC]))).body.data;
    expect((await post(c.globalToken, bc.broadcastUid, "start")).body.data.status).toBe("SENDING");
    // Other spending takes the balance below one message's price.
    await db.billingTransaction.create({
      data: { customerId: c.customer.id, type: "debit", amount: new Prisma.Decimal(0.9), description: "other" },
    });
    await dispatchOnce({ customerIds: [c.customer.id] });
    const now = await read(c.globalToken, bc.broadcastUid);
    expect(now).toMatchObject({ status: "PAUSED", pauseReason: "insufficient_balance" });
    expect(now.counts.queued).toBe(1);
  });

  it("a recipient left sending past its lease (its worker died in the call) becomes interrupted, never resent", async () => {
    const who = uniquePhone();
    const bookI = await book(a.customer.id, [{ phoneNumber: who, name: "Ivy" }]);
    const bc = (await create(a.globalToken, draft([bookI]))).body.data;
    await post(a.globalToken, bc.broadcastUid, "start");
    // In the call: its message row written (before the call, as the send pipeline does), no outcome.
    const [queued] = await db.broadcastRecipient.findMany({ where: { broadcastId: bc.broadcastUid } });
    const messageId = recipientMessageId(bc.broadcastUid, queued?.id ?? 0n, 1);
    await db.message.create({
      data: {
        id: messageId,
        customerId: a.customer.id,
        senderId: a.sender.id,
        recipient: who,
        type: "template",
        sendRoute: "send",
        payload: {},
        status: "sending",
        broadcastId: bc.broadcastUid,
      },
    });
    await db.broadcastRecipient.updateMany({
      where: { broadcastId: bc.broadcastUid },
      data: {
        status: "sending",
        messageId,
        attempts: 1,
        lockedUntil: new Date(Date.now() - 1000),
        sendingAt: new Date(),
      },
    });
    const done = await sendAll(a.customer.id, bc.broadcastUid);
    expect(done.status).toBe("COMPLETED");
    const [r] = await db.broadcastRecipient.findMany({ where: { broadcastId: bc.broadcastUid } });
    expect(r?.status).toBe("interrupted");
    // Only the message of the interrupted call: nothing sent again.
    expect(await db.message.count({ where: { broadcastId: bc.broadcastUid } })).toBe(1);
  });

  it("a contact who writes back after delivery marks the recipient replied", async () => {
    const who = uniquePhone();
    const bookR = await book(a.customer.id, [{ phoneNumber: who, name: "Rae" }]);
    const bc = (await create(a.globalToken, draft([bookR]))).body.data;
    await post(a.globalToken, bc.broadcastUid, "start");
    await sendAll(a.customer.id, bc.broadcastUid);
    await db.broadcastRecipient.updateMany({
      where: { broadcastId: bc.broadcastUid },
      data: { status: "delivered", deliveredAt: new Date() },
    });
    await contactWrites(a.sender, who, "Thanks!");
    const after = await read(a.globalToken, bc.broadcastUid);
    expect(after.counts.replied).toBe(1);
    const list = await call("GET", `/api/v3/broadcasts/${bc.broadcastUid}/recipients`, { token: a.globalToken });
    expect(list.body.data.recipients[0]).toMatchObject({ phoneNumber: who, replied: true });
  });
});

describe("scheduled starts", () => {
  it("two workers: a scheduled broadcast starts within 5 seconds of scheduledAt, once", async () => {
    const bookS = await book(a.customer.id, [{ phoneNumber: uniquePhone(), name: "Sam" }]);
    const bc = (await create(a.globalToken, draft([bookS]))).body.data;
    const at = new Date(Date.now() + 1500);
    expect(
      (await post(a.globalToken, bc.broadcastUid, "start", { scheduledAt: at.toISOString() })).body.data.status,
    ).toBe("SCHEDULED");
    const workers = [0, 1].map(() => startBroadcastWorker({ customerIds: [a.customer.id] }));
    try {
      await expect
        .poll(async () => (await db.broadcast.findUniqueOrThrow({ where: { id: bc.broadcastUid } })).startedAt, {
          timeout: 15_000,
          interval: 50,
        })
        .not.toBeNull();
      const started = await db.broadcast.findUniqueOrThrow({ where: { id: bc.broadcastUid } });
      const lateMs = (started.startedAt?.getTime() ?? 0) - at.getTime();
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs).toBeLessThan(5_000);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const events = await db.webhookEvent.findMany({ where: { customerId: a.customer.id, type: "broadcast.started" } });
    expect(
      events.filter((e) => (e.payload as { data: { broadcastUid: string } }).data.broadcastUid === bc.broadcastUid),
    ).toHaveLength(1);
    expect(await db.broadcastRecipient.count({ where: { broadcastId: bc.broadcastUid } })).toBe(1);
  });
});

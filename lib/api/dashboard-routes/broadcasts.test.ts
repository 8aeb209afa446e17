// The new-broadcast page's live count (POST /api/dashboard/broadcasts/estimate, ./broadcasts.ts)
// on a real database: unique recipients and those skipped by reason (blacklisted, invalid_number,
// missing_variable, duplicates), filters and defaults, the estimate against the balance, the
// sample values, the same numbers the start then makes, and tenant and sender isolation.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { DraftEstimate } from "@/lib/domains/broadcasts/draft-estimate";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { addTemplate, messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const { POST } = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const SAME = { Host: "dash.test", Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" };

type Answer = { status: number; body: { estimate: DraftEstimate; error_code?: string; message?: string } };
async function estimate(as: Principal | undefined, body: unknown): Promise<Answer> {
  nextRequest.principal = as;
  const res = await POST(
    new Request(`${ORIGIN}/api/dashboard/broadcasts/estimate`, {
      method: "POST",
      headers: SAME,
      body: JSON.stringify(body),
    }),
  );
  // The answer's estimate is the envelope's data; a refusal's code and message at the top.
  const json = await res.json();
  return { status: res.status, body: { ...json, estimate: json.data?.estimate } };
}

async function ownerOf(customerId: string): Promise<Principal> {
  const user = await db.user.create({
    data: { customerId, email: `bc-${randomBytes(4).toString("hex")}@example.test`, passwordHash: "x" },
  });
  return {
    customerId,
    plan: "pro",
    via: "session",
    userId: user.id,
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId: user.id, email: user.email, name: null, role: "owner", senderIds: null },
  };
}

type Row = { phoneNumber: string; name?: string | null; city?: string; tier?: string };
async function book(customerId: string, rows: Row[]) {
  const b = await db.contactBook.create({ data: { customerId, name: `Book ${uniquePhone()}` } });
  await db.contact.createMany({
    data: rows.map((r) => ({
      customerId,
      contactBookId: b.id,
      phoneNumber: r.phoneNumber,
      name: r.name ?? null,
      customFields: { ...(r.city ? { city: r.city } : {}), ...(r.tier ? { tier: r.tier } : {}) },
    })),
  });
  return b.id;
}

let a: Awaited<ReturnType<typeof messagingCustomer>>;
let owner: Principal;
let bookA: string;
let bookB: string;
const ada = uniquePhone();
const bob = uniquePhone();
const cy = uniquePhone();
const dee = uniquePhone();
const banned = uniquePhone();
const [first, second, third] = [ada, cy, dee].sort();

const TEMPLATE = { name: "order_ship", language: "en" };
const MAPPING = { body: [{ source: "name" }, { source: "field", key: "city" }] };
const draft = (over: Record<string, unknown> = {}) => ({
  template: TEMPLATE,
  audience: { contactBookUids: [bookA, bookB] },
  variables: MAPPING,
  ...over,
});

beforeAll(async () => {
  a = await messagingCustomer({ credit: 1 });
  owner = await ownerOf(a.customer.id);
  const t = await addTemplate(a.customer.id, { name: TEMPLATE.name, category: "MARKETING" });
  await db.template.update({
    where: { id: t.id },
    data: { components: [{ type: "BODY", text: "Hi {{1}}, your order ships to {{2}}." }] },
  });
  await db.rateCard.upsert({
    where: { scope_pricingCategory: { scope: a.customer.id, pricingCategory: "marketing" } },
    create: { scope: a.customer.id, customerId: a.customer.id, pricingCategory: "marketing", rate: 0.25 },
    update: { rate: 0.25 },
  });
  bookA = await book(a.customer.id, [
    { phoneNumber: ada, name: "Ada", city: "Paris", tier: "gold" },
    { phoneNumber: bob, name: "Bob", tier: "gold" },
    { phoneNumber: cy, name: "Cy", city: "Rome", tier: "silver" },
    { phoneNumber: banned, name: "Banned", city: "Oslo", tier: "gold" },
    { phoneNumber: "12345", name: "Bad number", city: "Lima", tier: "gold" },
  ]);
  // Ada again in a second book: one recipient, one duplicate.
  bookB = await book(a.customer.id, [
    { phoneNumber: ada, name: "Ada B", city: "Nice" },
    { phoneNumber: dee, name: "Dee", city: "Oslo", tier: "gold" },
  ]);
  await db.blacklistEntry.create({ data: { customerId: a.customer.id, senderId: a.sender.id, phoneNumber: banned } });
});

describe("the live count", () => {
  it("counts unique recipients and those skipped by reason, prices them and renders sample values", async () => {
    const res = await estimate(owner, { senderId: a.sender.phoneNumber, broadcast: draft() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const e = res.body.estimate;
    expect(e.skippedByReason).toEqual({ blacklisted: 1, invalid_number: 1, missing_variable: 1, duplicates: 1 });
    expect(e.estimate).toMatchObject({ recipients: 3, skipped: 3, cost: 0.75, currency: "USD", durationSeconds: 1 });
    // The first book's row wins for a number in two books (its name and city).
    expect(e.samples).toEqual([first, second, third].map((phoneNumber) => expect.objectContaining({ phoneNumber })));
    const byPhone = Object.fromEntries(e.samples.map((s) => [s.phoneNumber, s.values]));
    expect(byPhone[ada]).toEqual({ "body.0": "Ada", "body.1": "Paris" });
    expect(byPhone[dee]).toEqual({ "body.0": "Dee", "body.1": "Oslo" });
    // A balance of 1 covers 0.75.
    expect(e).toMatchObject({ balance: 1, insufficient: false });
    expect(e.messagingLimit).toEqual({ tier: 10_000, remaining: 10_000 });
  });

  it("follows the filters, the defaults and the pace", async () => {
    const gold = await estimate(owner, {
      senderId: a.sender.phoneNumber,
      broadcast: draft({
        audience: { contactBookUids: [bookA, bookB], filters: [{ field: "tier", op: "eq", value: "gold" }] },
      }),
    });
    // Ada (gold in book A; book B's Ada has no tier and is filtered out: no duplicate), Dee;
    // Bob gold but no city; banned and the bad number gold.
    expect(gold.body.estimate.skippedByReason).toEqual({
      blacklisted: 1,
      invalid_number: 1,
      missing_variable: 1,
      duplicates: 0,
    });
    expect(gold.body.estimate.estimate.recipients).toBe(2);

    const withDefault = await estimate(owner, {
      senderId: a.sender.phoneNumber,
      broadcast: draft({
        variables: { body: [{ source: "name" }, { source: "field", key: "city", default: "your city" }] },
        maxPerSecond: 2,
      }),
    });
    expect(withDefault.body.estimate.skippedByReason.missing_variable).toBe(0);
    expect(withDefault.body.estimate.estimate).toMatchObject({ recipients: 4, cost: 1, durationSeconds: 2 });
    // 4 x 0.25 = 1.00 against a balance of 1: exactly covered.
    expect(withDefault.body.estimate.insufficient).toBe(false);

    const constant = await estimate(owner, {
      senderId: a.sender.phoneNumber,
      broadcast: draft({
        audience: { contactBookUids: [bookB] },
        variables: { body: [{ source: "constant", value: "friend" }, { source: "phoneNumber" }] },
      }),
    });
    expect(constant.body.estimate.estimate.recipients).toBe(2);
    expect(constant.body.estimate.samples[0].values).toEqual({ "body.0": "friend", "body.1": [ada, dee].sort()[0] });
  });

  it("says when the balance does not cover the estimate", async () => {
    const res = await estimate(owner, {
      senderId: a.sender.phoneNumber,
      broadcast: draft({
        audience: { contactBookUids: [bookA, bookB], phoneNumbers: [uniquePhone(), uniquePhone()] },
        variables: {
          body: [
            { source: "name", default: "there" },
            { source: "field", key: "city", default: "you" },
          ],
        },
      }),
    });
    // Ada, Bob, Cy, Dee and the two listed numbers: 6 x 0.25 = 1.50 > 1.
    expect(res.body.estimate.estimate).toMatchObject({ recipients: 6, cost: 1.5 });
    expect(res.body.estimate).toMatchObject({ balance: 1, insufficient: true });
  });

  it("counts what the start then makes", async () => {
    const created = await call("POST", "/api/v3/broadcasts", {
      token: a.globalToken,
      body: { senderId: a.sender.phoneNumber, broadcast: { name: "Same numbers", ...draft() } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const uid = created.body.data.broadcastUid;
    const live = (await estimate(owner, { senderId: a.sender.phoneNumber, broadcast: draft() })).body.estimate;
    const started = await call("POST", `/api/v3/broadcasts/${uid}/start`, { token: a.globalToken, body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.estimate).toEqual(live.estimate);
    const rows = await db.broadcastRecipient.groupBy({
      by: ["status", "skipReason"],
      where: { broadcastId: uid },
      _count: { _all: true },
    });
    const n = (status: string, reason: string | null = null) =>
      rows.find((r) => r.status === status && r.skipReason === reason)?._count._all ?? 0;
    expect(n("queued") + n("sending") + n("accepted")).toBe(live.estimate.recipients);
    expect(n("skipped", "blacklisted")).toBe(live.skippedByReason.blacklisted);
    expect(n("skipped", "invalid_number")).toBe(live.skippedByReason.invalid_number);
    expect(n("skipped", "missing_variable")).toBe(live.skippedByReason.missing_variable);
    // Duplicates make no row: the unique numbers are the books' rows less the duplicates.
    expect(rows.reduce((sum, r) => sum + r._count._all, 0)).toBe(7 - live.skippedByReason.duplicates);
  });
});

describe("isolation and refusals", () => {
  it("reads the blacklist of the chosen sender only", async () => {
    const res = await estimate(owner, { senderId: a.otherSender.phoneNumber, broadcast: draft() });
    expect(res.status).toBe(200);
    expect(res.body.estimate.skippedByReason.blacklisted).toBe(0);
    expect(res.body.estimate.estimate.recipients).toBe(4);
  });

  it("refuses another customer's contact book and sender, and counts nothing of theirs", async () => {
    const b = await createTestCustomer();
    const other = await ownerOf(b.customer.id);
    await addTemplate(b.customer.id, { name: TEMPLATE.name });
    const books = await estimate(other, {
      senderId: b.sender.phoneNumber,
      broadcast: { ...draft(), variables: { body: [{ source: "name" }] } },
    });
    expect(books.status).toBe(400);
    expect(books.body.error_code).toBe("VALIDATION_FAILED");
    expect(books.body.message).toContain(bookA);
    const sender = await estimate(other, { senderId: a.sender.phoneNumber, broadcast: draft() });
    expect(sender.status).toBe(404);
    expect(sender.body.error_code).toBe("SENDER_NOT_FOUND");
    // Their own, empty, audience of explicit numbers: nothing of customer a's contacts leaks in.
    const own = await estimate(other, {
      senderId: b.sender.phoneNumber,
      broadcast: { template: TEMPLATE, audience: { phoneNumbers: [ada] }, variables: { body: [{ source: "name" }] } },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.estimate.skippedByReason.missing_variable).toBe(1);
    expect(own.body.estimate.samples).toEqual([]);
  });

  it("refuses a mapping that does not fit the template, an unknown template, and no session", async () => {
    const short = await estimate(owner, {
      senderId: a.sender.phoneNumber,
      broadcast: draft({ variables: { body: [{ source: "name" }] } }),
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain("2 body parameter(s); 1 mapped");
    const unknown = await estimate(owner, {
      senderId: a.sender.phoneNumber,
      broadcast: draft({ template: { name: "no_such_template", language: "en" } }),
    });
    expect(unknown.body.error_code).toBe("TEMPLATE_NOT_FOUND");
    const bad = await estimate(owner, { senderId: a.sender.phoneNumber, broadcast: draft({ audience: {} }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");
    expect((await estimate(undefined, { broadcast: draft() })).status).toBe(401);
  });
});

// The segment form's live count (POST /api/dashboard/segments/count): unsaved rules, counted as
// a saved segment with the same rules is counted by the API.
describe("the segment form's live count", () => {
  const count = async (as: Principal | undefined, body: unknown, handle = POST) => {
    nextRequest.principal = as;
    const res = await handle(
      new Request(`${ORIGIN}/api/dashboard/segments/count`, {
        method: "POST",
        headers: SAME,
        body: JSON.stringify(body),
      }),
    );
    return { status: res.status, body: await res.json() };
  };

  it("counts the rules as the saved segment's count does, and refuses another account's book", async () => {
    const rules = { contactBookUids: [bookA, bookB] };
    const saved = await call("POST", "/api/v3/segments", {
      token: a.globalToken,
      body: { segment: { name: `Live ${uniquePhone()}`, rules } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const counted = await call("GET", `/api/v3/segments/${saved.body.data.segmentUid}/count`, {
      token: a.globalToken,
    });
    const live = await count(owner, { rules });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.data.count).toBe(counted.body.data.count);
    expect(live.body.data.count).toBeGreaterThan(0);

    const other = await ownerOf((await createTestCustomer()).customer.id);
    const refused = await count(other, { rules });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("VALIDATION_FAILED");
    expect((await count(owner, { rules: {}, extra: 1 })).body.error_code).toBe("VALIDATION_FAILED");
    expect((await count(undefined, { rules })).status).toBe(401);
  });

  it("is the static path's, never /segments/{segmentUid}'s, should those be served to the session", async () => {
    // The public segment routes as if marked session: true, beside the dashboard's own: the
    // router prefers the most specific shape, so "count" is never read as a segment uid.
    const { createRouter } = await import("@/lib/api/router");
    const { segmentRoutes } = await import("@/lib/api/routes/segments");
    const { dashboardRoutes } = await import("@/lib/api/dashboard-route-table");
    const router = createRouter([...segmentRoutes.map((r) => ({ ...r, session: true as const })), ...dashboardRoutes]);
    const sessionAuth = { guard: () => {}, member: async () => owner };
    const handle = (request: Request) => router(request, { session: sessionAuth });
    const rules = { contactBookUids: [bookA] };
    const live = await count(owner, { rules }, handle);
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body.data).toEqual({ count: expect.any(Number) });
    // The parameterised path still answers its own route (an update of an unknown segment).
    const update = await handle(
      new Request(`${ORIGIN}/api/dashboard/segments/seg_nosuch0000`, {
        method: "POST",
        headers: SAME,
        body: JSON.stringify({ segment: { name: "x" } }),
      }),
    );
    expect(update.status).toBe(404);
    expect((await update.json()).error_code).toBe("SEGMENT_NOT_FOUND");
  });

  it('is no route for a token: on /api/v3 "count" is read as a segment uid, and counts nothing', async () => {
    const res = await call("POST", "/api/v3/segments/count", { token: a.globalToken, body: { rules: {} } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.data).toBeUndefined();
    const update = await call("POST", "/api/v3/segments/count", {
      token: a.globalToken,
      body: { segment: { name: "x" } },
    });
    expect(update.status).toBe(404);
    expect(update.body.error_code).toBe("SEGMENT_NOT_FOUND");
  });
});

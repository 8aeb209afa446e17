// Segments through the real router (docs/automation.md "Segments"): create, list, read, update,
// delete and the live count; each rule (books, filters, labels, lastInboundWithin, optedIn, every
// number the account knows); validation naming the field; audit entries; another account's and
// a number-scoped token's reach; and broadcasts sent to a segment: the count is the recipients
// a start makes, the start takes a snapshot, an unknown or deleted segment is refused by name.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { startChunks } from "./materialise";
import { SegmentCountBody } from "./segment-schemas";
import {
  countSegment,
  countSegmentRules,
  createSegment,
  listSegments,
  segmentChoices,
  segmentLabelChoices,
} from "./segments";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let a: Customer;
let b: Customer;
let bookA: string;
let otherBook: string;
const ada = uniquePhone();
const bob = uniquePhone();
const cy = uniquePhone();
const banned = uniquePhone();
const eve = uniquePhone(); // only in a conversation
const DAY = 86_400_000;

const segment = (t: Customer, body: unknown, version = "v3") =>
  call("POST", `/api/${version}/segments`, { token: t.globalToken, body: { segment: body } });
const countOf = async (t: Customer, uid: string) => {
  const res = await call("GET", `/api/v3/segments/${uid}/count`, { token: t.globalToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.count as number;
};
/** A segment's uid, created with these rules. */
const made = async (rules: unknown, name = `S ${uniquePhone()}`) => {
  const res = await segment(a, { name, rules });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.segmentUid as string;
};
const broadcastBody = async (audience: unknown) => ({
  body: {
    broadcast: {
      name: "To a segment",
      template: { name: "spring_sale", language: "en" },
      audience,
      variables: { body: [{ source: "name", default: "there" }] },
    },
  },
});
const broadcastTo = async (t: Customer, audience: unknown) =>
  call("POST", "/api/v3/broadcasts", { token: t.globalToken, ...(await broadcastBody(audience)) });
const start = (t: Customer, uid: string) =>
  call("POST", `/api/v3/broadcasts/${uid}/start`, { token: t.globalToken, body: {} });
const recipientsOf = async (uid: string) =>
  (await db.broadcastRecipient.findMany({ where: { broadcastId: uid } })).map((r) => r.phoneNumber).sort();

async function conversation(t: Customer, phone: string, lastInboundAt: Date, name: string | null = null) {
  await db.conversation.create({
    data: {
      id: `conv_${uniquePhone().slice(1)}`,
      customerId: t.customer.id,
      senderId: t.sender.id,
      contactPhoneNumber: phone,
      contactName: name,
      lastMessageAt: lastInboundAt,
      lastInboundAt,
    },
  });
}

beforeAll(async () => {
  [a, b] = await Promise.all([messagingCustomer({ credit: 100 }), messagingCustomer({ credit: 100 })]);
  const book = await db.contactBook.create({ data: { customerId: a.customer.id, name: "Customers" } });
  bookA = book.id;
  await db.contact.createMany({
    data: [
      { phoneNumber: ada, name: "Ada", customFields: { city: "Lisbon" } },
      { phoneNumber: bob, name: "Bob", customFields: { city: "Porto" } },
      { phoneNumber: cy, name: "Cy", customFields: { city: "Lisbon" } },
      { phoneNumber: banned, name: "Banned", customFields: { city: "Lisbon" } },
    ].map((c) => ({ ...c, customerId: a.customer.id, contactBookId: bookA })),
  });
  // An inactive book's contacts are in no audience.
  const inactive = await db.contactBook.create({
    data: { customerId: a.customer.id, name: "Old", status: "INACTIVE" },
  });
  await db.contact.create({
    data: { customerId: a.customer.id, contactBookId: inactive.id, phoneNumber: uniquePhone(), name: "Gone" },
  });
  otherBook = (await db.contactBook.create({ data: { customerId: b.customer.id, name: "B's" } })).id;
  await db.blacklistEntry.create({ data: { customerId: a.customer.id, senderId: a.sender.id, phoneNumber: banned } });
  const now = Date.now();
  await conversation(a, ada, new Date(now - DAY));
  await conversation(a, bob, new Date(now - 60 * DAY));
  await conversation(a, eve, new Date(now - 2 * DAY), "Eve");
  const vip = await db.label.create({
    data: {
      id: `lbl_${Date.now().toString(16)}a`,
      customerId: a.customer.id,
      name: "VIP",
      nameKey: "vip",
      color: "purple",
    },
  });
  const gold = await db.label.create({
    data: {
      id: `lbl_${Date.now().toString(16)}b`,
      customerId: a.customer.id,
      name: "Gold",
      nameKey: "gold",
      color: "yellow",
    },
  });
  await db.contactLabel.createMany({
    data: [
      { phoneNumber: ada, labelId: vip.id },
      { phoneNumber: ada, labelId: gold.id },
      { phoneNumber: cy, labelId: vip.id },
      { phoneNumber: eve, labelId: vip.id },
    ].map((l) => ({ ...l, customerId: a.customer.id })),
  });
});

afterEach(() => {
  startChunks.chunk = 5_000;
  startChunks.requestBudgetMs = 1_000;
});

describe("segments API", () => {
  it("creates, lists, reads, updates and deletes on v2 and v3, each change audited", async () => {
    const created = await segment(a, { name: "VIPs", rules: { labels: ["vip"], optedIn: true } }, "v2");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const uid = created.body.data.segmentUid as string;
    expect(uid).toMatch(/^seg_/);
    expect(created.body.data).toEqual({
      segmentUid: uid,
      uid,
      name: "VIPs",
      // The label as the account spells it.
      rules: { contactBookUids: [], filters: [], labels: ["VIP"], lastInboundWithin: null, optedIn: true },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await call("GET", "/api/v3/segments", { token: a.globalToken });
    expect(list.status).toBe(200);
    expect(list.body.data.segments.map((s: { segmentUid: string }) => s.segmentUid)).toContain(uid);
    expect(list.body.data.items).toEqual(list.body.data.segments);
    expect((await call("GET", `/api/v2/segments/${uid}`, { token: a.globalToken })).body.data).toEqual(
      created.body.data,
    );
    const updated = await call("POST", `/api/v3/segments/${uid}`, {
      token: a.globalToken,
      body: { segment: { name: "Active VIPs", rules: { labels: ["VIP"], lastInboundWithin: "P30D" } } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: "Active VIPs",
      rules: { labels: ["VIP"], lastInboundWithin: "P30D", optedIn: false },
    });
    const empty = await call("POST", `/api/v3/segments/${uid}`, { token: a.globalToken, body: { segment: {} } });
    expect(empty.status).toBe(400);
    expect(empty.body.error_code).toBe("VALIDATION_FAILED");

    const deleted = await call("DELETE", `/api/v3/segments/${uid}`, { token: a.globalToken });
    expect(deleted.body.data).toEqual({ segmentUid: uid, deleted: true });
    for (const path of [`/api/v3/segments/${uid}`, `/api/v3/segments/${uid}/count`, "/api/v3/segments/nope"]) {
      const gone = await call("GET", path, { token: a.globalToken });
      expect(gone.status, path).toBe(404);
      expect(gone.body.error_code, path).toBe("SEGMENT_NOT_FOUND");
    }
    const audit = await db.auditEvent.findMany({
      where: { customerId: a.customer.id, targetUid: uid },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((e) => e.action)).toEqual(["segment.created", "segment.updated", "segment.deleted"]);
    expect(audit[0]).toMatchObject({ targetType: "segment", actorType: "api_token" });
  });

  it("refuses bad rules naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ name: "x", rules: { lastInboundWithin: "30 days" } }, "body.segment.rules.lastInboundWithin"],
      [{ name: "x", rules: { lastInboundWithin: "P" } }, "body.segment.rules.lastInboundWithin"],
      [{ name: "x", rules: { lastInboundWithin: "P1DT" } }, "body.segment.rules.lastInboundWithin"],
      [{ name: "x", rules: { lastInboundWithin: "P9999Y" } }, "body.segment.rules.lastInboundWithin"],
      [{ name: "x", rules: { lastInboundWithin: "P3661D" } }, "body.segment.rules.lastInboundWithin"],
      [{ name: "x", rules: { labels: ["VIP", "nope"] } }, "body.segment.rules.labels"],
      [{ name: "x", rules: { contactBookUids: [otherBook] } }, "body.segment.rules.contactBookUids"],
      [{ name: "x", rules: { optedIn: "yes" } }, "body.segment.rules.optedIn"],
      [
        { name: "x", rules: { filters: [{ field: "city", op: "like", value: "x" }] } },
        "body.segment.rules.filters.0.op",
      ],
      [{ name: "x", rules: { colour: "red" } }, "body.segment.rules"],
      [{ rules: {} }, "body.segment.name"],
    ];
    for (const [body, path] of cases) {
      const res = await segment(a, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(
        res.body.details.fields.map((f: { path: string }) => f.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    for (const ok of ["P2W", "PT12H", "P1M15D", "P1Y"]) {
      expect((await segment(a, { name: ok, rules: { lastInboundWithin: ok } })).status, ok).toBe(201);
    }
  });

  it("reaches only its own account: another account's uid is SEGMENT_NOT_FOUND on every route, a number-scoped token is refused", async () => {
    const uid = await made({ labels: ["VIP"] });
    const routes: [string, string, unknown?][] = [
      ["GET", `/api/v3/segments/${uid}`],
      ["POST", `/api/v3/segments/${uid}`, { segment: { name: "Mine now" } }],
      ["DELETE", `/api/v3/segments/${uid}`],
      ["GET", `/api/v3/segments/${uid}/count`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(method, path, { token: b.globalToken, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error_code).toBe("SEGMENT_NOT_FOUND");
    }
    const theirs = await call("GET", "/api/v3/segments", { token: b.globalToken });
    expect(theirs.body.data.segments).toEqual([]);
    const scoped = await call("GET", "/api/v3/segments", { token: a.scopedToken });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    expect((await call("GET", `/api/v3/segments/${uid}`, { token: a.globalToken })).body.data.name).not.toBe(
      "Mine now",
    );
    // A number-scoped token may not send to a segment either: a segment reaches every sender's
    // conversations, so it would read and message contacts of senders outside its scope.
    const viaScoped = { ...(await broadcastBody({ segmentUid: uid })), token: a.scopedToken };
    const res = await call("POST", "/api/v3/broadcasts", viaScoped);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    const draft = await call("POST", "/api/v3/broadcasts", {
      ...(await broadcastBody({ contactBookUids: [bookA] })),
      token: a.scopedToken,
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const patched = await call("POST", `/api/v3/broadcasts/${draft.body.data.broadcastUid}`, {
      token: a.scopedToken,
      body: { broadcast: { audience: { segmentUid: uid } } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(403);
    expect(patched.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    // Another account's segment in a broadcast's audience is refused by name.
    const borrowed = await broadcastTo(b, { segmentUid: uid });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.details.fields[0].path).toBe("body.broadcast.audience.segmentUid");
  });

  it("members need the broadcasts permission, in the service", async () => {
    const agent = memberPrincipal(a.customer.id, { role: "agent" });
    await expect(listSegments(agent, { page: 1, limit: 10 })).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(
      createSegment(agent, {
        name: "x",
        rules: { contactBookUids: [], filters: [], labels: [], lastInboundWithin: null, optedIn: false },
      }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const admin = memberPrincipal(a.customer.id, { role: "admin" });
    const row = await createSegment(admin, {
      name: "By an admin",
      rules: { contactBookUids: [], filters: [], labels: ["vip"], lastInboundWithin: null, optedIn: false },
    });
    await expect(countSegment(agent, row.id)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(segmentChoices(agent)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    expect(await segmentChoices(admin)).toContainEqual({ uid: row.id, name: "By an admin" });
    expect(await countSegment(admin, row.id)).toBe(3);
  });
});

describe("the rules", () => {
  it("without books: every number of the account's active books and conversations, each once", async () => {
    expect(await countOf(a, await made({}))).toBe(5); // ada, bob, cy, banned, eve
  });

  it("labels: the contact carries all of them, whatever the case", async () => {
    expect(await countOf(a, await made({ labels: ["vip"] }))).toBe(3); // ada, cy, eve
    expect(await countOf(a, await made({ labels: ["VIP", "gold"] }))).toBe(1); // ada
  });

  it("lastInboundWithin counts back from now; optedIn leaves out the account's blacklisted numbers", async () => {
    expect(await countOf(a, await made({ lastInboundWithin: "P30D" }))).toBe(2); // ada, eve
    expect(await countOf(a, await made({ lastInboundWithin: "PT36H" }))).toBe(1); // ada
    expect(await countOf(a, await made({ lastInboundWithin: "P90D" }))).toBe(3); // ada, bob, eve
    expect(await countOf(a, await made({ optedIn: true }))).toBe(4);
  });

  it("books and filters as a broadcast audience has them", async () => {
    const lisbon = [{ field: "city", op: "eq", value: "lisbon" }];
    expect(await countOf(a, await made({ contactBookUids: [bookA], filters: lisbon }))).toBe(3); // ada, cy, banned
    expect(await countOf(a, await made({ filters: lisbon, optedIn: true }))).toBe(2); // ada, cy
    expect(await countOf(a, await made({ contactBookUids: [bookA], labels: ["VIP"] }))).toBe(2); // ada, cy
  });
});

describe("the dashboard's segment form", () => {
  const rulesOf = (rules: unknown) => SegmentCountBody.parse({ rules }).rules;

  it("counts rules not saved yet as the saved segment is counted, and offers the account's labels", async () => {
    const admin = memberPrincipal(a.customer.id, { role: "admin" });
    for (const rules of [
      {},
      { labels: ["vip"] },
      { lastInboundWithin: "P30D", optedIn: true },
      { contactBookUids: [bookA], filters: [{ field: "city", op: "eq", value: "lisbon" }], labels: ["VIP"] },
    ]) {
      expect(await countSegmentRules(admin, rulesOf(rules)), JSON.stringify(rules)).toBe(
        await countOf(a, await made(rules)),
      );
    }
    expect(await segmentLabelChoices(admin)).toEqual(["Gold", "VIP"]);
    expect(await segmentLabelChoices(memberPrincipal(b.customer.id, { role: "owner" }))).toEqual([]);
  });

  it("refuses another account's book and a name that is no label, naming the field; members need broadcasts", async () => {
    const admin = memberPrincipal(a.customer.id, { role: "admin" });
    await expect(countSegmentRules(admin, rulesOf({ labels: ["nope"] }))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { fields: [{ path: "body.segment.rules.labels" }] },
    });
    await expect(countSegmentRules(admin, rulesOf({ contactBookUids: [otherBook] }))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: { fields: [{ path: "body.segment.rules.contactBookUids" }] },
    });
    const agent = memberPrincipal(a.customer.id, { role: "agent" });
    await expect(countSegmentRules(agent, rulesOf({}))).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(segmentLabelChoices(agent)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });
});

describe("broadcasts to a segment", () => {
  it("the count is the number of recipients a start makes, in chunks too (the same query)", async () => {
    for (const rules of [{}, { labels: ["VIP"] }, { filters: [{ field: "city", op: "eq", value: "Lisbon" }] }]) {
      const uid = await made(rules);
      const count = await countOf(a, uid);
      startChunks.chunk = 2;
      startChunks.requestBudgetMs = 30_000;
      const bc = await broadcastTo(a, { segmentUid: uid });
      expect(bc.status, JSON.stringify(bc.body)).toBe(201);
      expect(bc.body.data.audience).toEqual({ contactBookUids: [], filters: [], phoneNumbers: [], segmentUid: uid });
      const started = await start(a, bc.body.data.broadcastUid);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(["SENDING", "COMPLETED"]).toContain(started.body.data.status);
      expect(started.body.data.counts.total, JSON.stringify(rules)).toBe(count);
      expect((await recipientsOf(bc.body.data.broadcastUid)).length).toBe(count);
    }
    // The blacklisted number is a recipient, skipped; the conversation's name fills the variable.
    const every = await broadcastTo(a, { segmentUid: await made({}) });
    await start(a, every.body.data.broadcastUid);
    const rows = await db.broadcastRecipient.findMany({ where: { broadcastId: every.body.data.broadcastUid } });
    expect(rows.find((r) => r.phoneNumber === banned)).toMatchObject({ status: "skipped", skipReason: "blacklisted" });
    expect(rows.find((r) => r.phoneNumber === eve)?.parameters).toEqual({ body: ["Eve"], header: [] });
  });

  it("is a snapshot at the start: the segment changed or deleted later changes nothing; deleted before, it is refused by name", async () => {
    const uid = await made({ labels: ["VIP"] });
    const bc = (await broadcastTo(a, { segmentUid: uid })).body.data.broadcastUid as string;
    expect((await start(a, bc)).status).toBe(200);
    const before = await recipientsOf(bc);
    expect(before).toEqual([ada, cy, eve].sort());
    await call("POST", `/api/v3/segments/${uid}`, { token: a.globalToken, body: { segment: { rules: {} } } });
    await call("DELETE", `/api/v3/segments/${uid}`, { token: a.globalToken });
    const read = await call("GET", `/api/v3/broadcasts/${bc}`, { token: a.globalToken });
    expect(read.status).toBe(200);
    expect(read.body.data.audience.segmentUid).toBe(uid);
    expect(read.body.data.counts.total).toBe(3);
    expect(await recipientsOf(bc)).toEqual(before);

    const late = await broadcastTo(a, { segmentUid: uid });
    expect(late.status).toBe(400);
    expect(late.body.error_code).toBe("VALIDATION_FAILED");
    expect(late.body.details.fields[0]).toMatchObject({
      path: "body.broadcast.audience.segmentUid",
      message: expect.stringContaining(uid),
    });

    const other = await made({ labels: ["VIP"] });
    const draft = (await broadcastTo(a, { segmentUid: other })).body.data.broadcastUid as string;
    await call("DELETE", `/api/v3/segments/${other}`, { token: a.globalToken });
    const refused = await start(a, draft);
    expect(refused.status).toBe(400);
    expect(refused.body.details.fields[0].path).toBe("audience.segmentUid");
    expect((await call("GET", `/api/v3/broadcasts/${draft}`, { token: a.globalToken })).body.data.status).toBe("DRAFT");
  });

  it("a segment audience is alone: with books, filters or numbers it is refused naming segmentUid", async () => {
    const uid = await made({});
    const mixed = await broadcastTo(a, { segmentUid: uid, contactBookUids: [bookA] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.details.fields[0].path).toBe("body.broadcast.audience.segmentUid");
    const bad = await broadcastTo(a, { segmentUid: "not-a-segment" });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields[0].path).toBe("body.broadcast.audience.segmentUid");
  });
});

// GET /api/v3/billing/messages through the real router: every filter and every sort
// checked against a plain-JS computation over ~400 seeded records, pagination edges,
// validation, scopes and tenant isolation (docs/api/billing.md).
import { beforeAll, describe, expect, it } from "vitest";
import { recordApiAnswers } from "@/test/api-answers";
import {
  dayString,
  type Filters,
  insertRecords,
  makeRecords,
  matches,
  type SeedRecord,
  sortRecords,
  toPublic,
} from "@/test/billing-fixtures";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const PATH = "/api/v3/billing/messages";
let me: TestCustomer;
let other: TestCustomer;
let mine: SeedRecord[];
let theirs: SeedRecord[];

beforeAll(async () => {
  [me, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  mine = makeRecords(me.customer.id, [me.sender, me.otherSender], 400, 42);
  // Another customer's records with the same shapes (same seed: same statuses, rates, days).
  theirs = makeRecords(other.customer.id, [other.sender, other.otherSender], 60, 42);
  await insertRecords([...mine, ...theirs]);
});

type Query = Record<string, string | number>;

/** Every page of a query (limit 200), checking each page's pagination block. */
async function readAll(token: string, query: Query) {
  const ids: string[] = [];
  let total = -1;
  for (let page = 1; page < 20; page++) {
    const res = await call("GET", PATH, { token, query: { ...query, page, limit: 200 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { billingRecords, pagination } = res.body.data;
    if (total === -1) total = pagination.total;
    expect(pagination.total).toBe(total);
    expect(pagination.totalPages).toBe(Math.ceil(total / 200));
    expect(pagination.count).toBe(billingRecords.length);
    expect(pagination.hasMore).toBe(page * 200 < total);
    ids.push(...billingRecords.map((r: { billingUid: string }) => r.billingUid));
    if (!pagination.hasMore) break;
  }
  return { ids, total };
}

function expected(f: Filters, sortBy?: string, sortOrder?: string) {
  const key = (sortBy ?? "created_at") as Parameters<typeof sortRecords>[1];
  const order = (sortOrder?.toUpperCase() ?? "DESC") as "ASC" | "DESC";
  return sortRecords(
    mine.filter((r) => matches(r, f)),
    key,
    order,
  ).map((r) => r.id);
}

describe("billing messages: shape and scope", () => {
  it("returns the contract's data and record shape, user-wide for a global token without senderId", async () => {
    const res = await call("GET", PATH, { token: me.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.metadata.apiVersion).toBe("v3");
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(["billingRecords", "pagination", "phoneNumberId", "scope", "senderId"]);
    expect(data.scope).toBe("user");
    expect(data.senderId).toBeNull();
    expect(data.pagination).toEqual({ page: 1, limit: 50, total: 400, totalPages: 8, count: 50, hasMore: true });
    const want = sortRecords(mine).slice(0, 50).map(toPublic);
    expect(data.billingRecords).toEqual(want);
  });

  it("scopes to one sender with senderId (scope sender) and sets the phone number id header", async () => {
    const res = await call("GET", PATH, {
      token: me.globalToken,
      query: { senderId: me.otherSender.phoneNumber, limit: 200 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.scope).toBe("sender");
    expect(res.body.data.senderId).toBe(me.otherSender.phoneNumber);
    expect(res.body.data.phoneNumberId).toBe(me.otherSender.phoneNumberId);
    expect(res.headers.get("X-Service-Phone-Number-Id")).toBe(me.otherSender.phoneNumberId);
    const ids = res.body.data.billingRecords.map((r: { billingUid: string }) => r.billingUid);
    expect(ids).toEqual(expected({ senderId: me.otherSender.id }));
  });

  it("a number-scoped token without senderId reads only its own sender", async () => {
    const { ids, total } = await readAll(me.scopedToken, {});
    expect(ids).toEqual(expected({ senderId: me.sender.id }));
    expect(total).toBe(mine.filter((r) => r.senderId === me.sender.id).length);
    const res = await call("GET", PATH, { token: me.scopedToken });
    expect(res.body.data.scope).toBe("sender");
    expect(res.body.data.senderId).toBe(me.sender.phoneNumber);
  });

  it("a number-scoped token reading another sender gets 403 SENDER_NOT_ALLOWED", async () => {
    const bySender = await call("GET", PATH, {
      token: me.scopedToken,
      query: { senderId: me.otherSender.phoneNumber },
    });
    expect(bySender.status).toBe(403);
    expect(bySender.body.error_code).toBe("SENDER_NOT_ALLOWED");
    const byNumberId = await call("GET", PATH, {
      token: me.scopedToken,
      query: { phoneNumberId: me.otherSender.phoneNumberId ?? "" },
    });
    expect(byNumberId.status).toBe(403);
    expect(byNumberId.body.error_code).toBe("SENDER_NOT_ALLOWED");
    const own = await call("GET", PATH, {
      token: me.scopedToken,
      query: { phoneNumberId: me.sender.phoneNumberId ?? "" },
    });
    expect(own.status).toBe(200);
  });

  it("an unknown sender is SENDER_NOT_FOUND; billing under /api/v2 is 404 NOT_FOUND", async () => {
    const unknown = await call("GET", PATH, { token: me.globalToken, query: { senderId: other.sender.phoneNumber } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("SENDER_NOT_FOUND");
    const v2 = await call("GET", "/api/v2/billing/messages", { token: me.globalToken });
    expect(v2.status).toBe(404);
    expect(v2.body.error_code).toBe("NOT_FOUND");
    expect(v2.body.details).toEqual({});
  });

  it("never shows another customer's records", async () => {
    const { ids } = await readAll(me.globalToken, {});
    const theirIds = new Set(theirs.map((r) => r.id));
    expect(ids.filter((id) => theirIds.has(id))).toEqual([]);
    expect(ids.length).toBe(400);
    const probe = theirs[0] as SeedRecord;
    const byMessage = await call("GET", PATH, { token: me.globalToken, query: { messageId: probe.messageId } });
    expect(byMessage.body.data.billingRecords).toEqual([]);
    const byNumber = await call("GET", PATH, { token: me.globalToken, query: { phoneNumberId: probe.phoneNumberId } });
    expect(byNumber.body.data.billingRecords).toEqual([]);
    expect(byNumber.body.data.pagination.total).toBe(0);
    const mineOnly = await call("GET", PATH, { token: other.globalToken, query: { limit: 200 } });
    expect(mineOnly.body.data.pagination.total).toBe(60);
  });
});

describe("billing messages: every filter against an independent computation", () => {
  const cases: [string, () => { query: Query; filters: Filters }][] = [
    ["senderId", () => ({ query: { senderId: me.sender.phoneNumber }, filters: { senderId: me.sender.id } })],
    [
      "phoneNumberId",
      () => ({
        query: { phoneNumberId: me.otherSender.phoneNumberId ?? "" },
        filters: { phoneNumberId: me.otherSender.phoneNumberId ?? "" },
      }),
    ],
    ["dateFrom", () => ({ query: { dateFrom: dayString(10) }, filters: { dateFrom: dayString(10) } })],
    ["dateTo", () => ({ query: { dateTo: dayString(19) }, filters: { dateTo: dayString(19) } })],
    [
      "dateFrom + dateTo (inclusive whole days)",
      () => ({
        query: { dateFrom: dayString(10), dateTo: dayString(19) },
        filters: { dateFrom: dayString(10), dateTo: dayString(19) },
      }),
    ],
    [
      "one day",
      () => ({
        query: { dateFrom: dayString(10), dateTo: dayString(10) },
        filters: { dateFrom: dayString(10), dateTo: dayString(10) },
      }),
    ],
    ["status delivered", () => ({ query: { status: "delivered" }, filters: { status: "delivered" } })],
    ["status failed", () => ({ query: { status: "failed" }, filters: { status: "failed" } })],
    ["another status (expired)", () => ({ query: { status: "expired" }, filters: { status: "expired" } })],
    ["templateType", () => ({ query: { templateType: "utility" }, filters: { templateType: "utility" } })],
    ["billable=true", () => ({ query: { billable: "true" }, filters: { billable: "true" } })],
    ["billable=false", () => ({ query: { billable: "false" }, filters: { billable: "false" } })],
    ["billable=payable", () => ({ query: { billable: "payable" }, filters: { billable: "payable" } })],
    ["billable=free", () => ({ query: { billable: "free" }, filters: { billable: "free" } })],
    [
      "pricingType",
      () => ({ query: { pricingType: "free_entry_point" }, filters: { pricingType: "free_entry_point" } }),
    ],
    [
      "messageId",
      () => {
        const m = (mine[123] as SeedRecord).messageId;
        return { query: { messageId: m }, filters: { messageId: m } };
      },
    ],
    ["recipient (with +)", () => ({ query: { recipient: "+15550001002" }, filters: { recipient: "15550001002" } })],
    [
      "recipient (stored with +, asked without)",
      () => ({ query: { recipient: "15550001003" }, filters: { recipient: "15550001003" } }),
    ],
    [
      "conversationId",
      () => {
        const c = mine.find((r) => r.conversationId)?.conversationId ?? "";
        return { query: { conversationId: c }, filters: { conversationId: c } };
      },
    ],
    [
      "four filters at once",
      () => ({
        query: { senderId: me.sender.phoneNumber, billable: "payable", dateFrom: dayString(5), dateTo: dayString(40) },
        filters: { senderId: me.sender.id, billable: "payable", dateFrom: dayString(5), dateTo: dayString(40) },
      }),
    ],
    [
      "a combination matching nothing",
      () => ({ query: { status: "read", messageId: "nope" }, filters: { status: "read", messageId: "nope" } }),
    ],
  ];

  it.each(cases)("%s", async (_name, make) => {
    const { query, filters } = make();
    const want = expected(filters);
    const { ids, total } = await readAll(me.globalToken, query);
    expect(total).toBe(want.length);
    expect(ids).toEqual(want);
  });

  it("date boundaries: the first millisecond of dateFrom and the last of dateTo are included", async () => {
    const first = mine[1] as SeedRecord;
    const last = mine[2] as SeedRecord;
    const { ids } = await readAll(me.globalToken, { dateFrom: dayString(10), dateTo: dayString(19) });
    expect(ids).toContain(first.id);
    expect(ids).toContain(last.id);
    const before = await readAll(me.globalToken, { dateTo: dayString(9) });
    expect(before.ids).not.toContain(first.id);
    const after = await readAll(me.globalToken, { dateFrom: dayString(20) });
    expect(after.ids).not.toContain(last.id);
  });
});

describe("billing messages: every sortBy x sortOrder", () => {
  const sorts = ["created_at", "message_timestamp", "pricing_category", "status", "rate"];
  const combos = sorts.flatMap((s) => [
    [s, "ASC"],
    [s, "DESC"],
  ]);
  it.each(combos)("sortBy=%s sortOrder=%s (stable across pages)", async (sortBy, sortOrder) => {
    const { ids } = await readAll(me.globalToken, { sortBy: sortBy as string, sortOrder: sortOrder as string });
    expect(ids).toEqual(expected({}, sortBy, sortOrder));
  });

  it("sortOrder is case-insensitive and defaults to DESC; small pages tile the full order", async () => {
    const lower = await readAll(me.globalToken, { sortBy: "rate", sortOrder: "asc" });
    expect(lower.ids).toEqual(expected({}, "rate", "ASC"));
    const want = expected({ senderId: me.sender.id }, "pricing_category", "DESC");
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(want.length / 37); page++) {
      const res = await call("GET", PATH, {
        token: me.globalToken,
        query: { senderId: me.sender.phoneNumber, sortBy: "pricing_category", page, limit: 37 },
      });
      seen.push(...res.body.data.billingRecords.map((r: { billingUid: string }) => r.billingUid));
      expect(res.body.data.pagination.hasMore).toBe(page * 37 < want.length);
    }
    expect(seen).toEqual(want);
  });
});

describe("billing messages: pagination edges and validation", () => {
  it.each([["0"], ["-1"], ["1.5"], ["abc"], ["99999999999"]])("page=%s is 400 VALIDATION_FAILED", async (page) => {
    const res = await call("GET", PATH, { token: me.globalToken, query: { page } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields[0].path).toBe("query.page");
  });

  it.each([["0"], ["201"], ["abc"], ["-5"], ["2.5"]])("limit=%s is 400 VALIDATION_FAILED", async (limit) => {
    const res = await call("GET", PATH, { token: me.globalToken, query: { limit } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields[0].path).toBe("query.limit");
  });

  it("limit=200 is allowed; a page past the end is an empty list with hasMore false", async () => {
    const full = await call("GET", PATH, { token: me.globalToken, query: { limit: 200 } });
    expect(full.status).toBe(200);
    expect(full.body.data.pagination).toEqual({
      page: 1,
      limit: 200,
      total: 400,
      totalPages: 2,
      count: 200,
      hasMore: true,
    });
    const last = await call("GET", PATH, { token: me.globalToken, query: { limit: 200, page: 2 } });
    expect(last.body.data.pagination).toEqual({
      page: 2,
      limit: 200,
      total: 400,
      totalPages: 2,
      count: 200,
      hasMore: false,
    });
    for (const page of [3, 1_000_000]) {
      const past = await call("GET", PATH, { token: me.globalToken, query: { limit: 200, page } });
      expect(past.status).toBe(200);
      expect(past.body.data.billingRecords).toEqual([]);
      expect(past.body.data.pagination).toEqual({
        page,
        limit: 200,
        total: 400,
        totalPages: 2,
        count: 0,
        hasMore: false,
      });
    }
  });

  it.each([
    ["dateFrom", "2026-13-01"],
    ["dateFrom", "2026-02-30"],
    ["dateTo", "20260101"],
    ["dateTo", "yesterday"],
    ["templateType", "promo"],
    ["billable", "yes"],
    ["billable", "TRUE "],
    ["sortBy", "amount"],
    ["sortBy", "createdAt"],
    ["sortOrder", "up"],
    ["status", "Delivered!"],
  ])("%s=%s is 400 VALIDATION_FAILED naming the field", async (field, value) => {
    const res = await call("GET", PATH, { token: me.globalToken, query: { [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(`query.${field}`);
  });

  it("dateFrom after dateTo is 400 VALIDATION_FAILED", async () => {
    const res = await call("GET", PATH, {
      token: me.globalToken,
      query: { dateFrom: "2026-10-02", dateTo: "2026-10-01" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
  });

  it("a new record shows up in total at once when the page is not full", async () => {
    const fresh = makeRecords(me.customer.id, [me.otherSender], 1, 7)[0] as SeedRecord;
    fresh.status = "zz_fresh";
    await insertRecords([fresh]);
    const res = await call("GET", PATH, { token: me.globalToken, query: { status: "zz_fresh" } });
    expect(res.body.data.pagination.total).toBe(1);
    expect(res.body.data.billingRecords[0]).toEqual(toPublic(fresh));
    mine.push(fresh);
  });
});

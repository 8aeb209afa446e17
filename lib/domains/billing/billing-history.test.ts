// GET /api/v3/billing/history and /billing/history/{senderId} through the real router:
// the ledger, its filters and summary against a plain-JS computation, scopes, paging.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { dayString } from "@/test/billing-fixtures";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

type Tx = {
  id: string;
  customerId: string;
  senderId: string | null;
  type: "debit" | "credit" | "refund" | "adjustment";
  amount: number;
  currency: string;
  description: string | null;
  templateType: string | null;
  billingClass: string | null;
  pricingCategory: string | null;
  createdAt: Date;
};

let me: TestCustomer;
let other: TestCustomer;
let ledger: Tx[];

const PATH = "/api/v3/billing/history";
const at = (day: number, hour = 12) => new Date(`${dayString(day)}T${String(hour).padStart(2, "0")}:00:00.000Z`);

function makeLedger(c: TestCustomer): Tx[] {
  const tag = randomBytes(4).toString("hex");
  const rows: Tx[] = [];
  const add = (t: Omit<Tx, "id" | "customerId" | "currency" | "description"> & { description?: string }) =>
    rows.push({
      id: `t${tag}${randomBytes(8).toString("hex")}`,
      customerId: c.customer.id,
      currency: "USD",
      description: t.description ?? null,
      ...t,
    });
  const base = { templateType: null, billingClass: null, pricingCategory: null };
  add({ ...base, senderId: null, type: "credit", amount: 100, createdAt: at(0, 0), description: "Top-up" });
  add({ ...base, senderId: null, type: "credit", amount: 50.5, createdAt: at(20) });
  add({ ...base, senderId: null, type: "adjustment", amount: 5, createdAt: at(21) });
  add({ ...base, senderId: c.otherSender.id, type: "adjustment", amount: -2.5, createdAt: at(22) });
  add({ ...base, senderId: c.sender.id, type: "refund", amount: 0.05, createdAt: at(23) });
  const types = ["marketing", "utility", "authentication", "service"];
  for (let i = 0; i < 130; i++) {
    const templateType = types[i % 4] ?? null;
    add({
      senderId: i % 3 === 0 ? c.otherSender.id : c.sender.id,
      type: "debit",
      amount: [0.0125, 0.025, 0.0147, 0.05][i % 4] ?? 0,
      templateType,
      billingClass: i % 7 === 0 ? "free" : "payable",
      pricingCategory: templateType,
      createdAt: at(i % 30, i % 24),
    });
  }
  return rows;
}

beforeAll(async () => {
  [me, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  ledger = makeLedger(me);
  await db.billingTransaction.createMany({ data: [...ledger, ...makeLedger(other)] });
});

type F = Partial<{
  senderId: string;
  dateFrom: string;
  dateTo: string;
  transactionType: string;
  templateType: string;
  billingClass: string;
}>;

function expectedFor(f: F) {
  const rows = ledger
    .filter((t) => {
      const day = t.createdAt.toISOString().slice(0, 10);
      if (f.senderId && t.senderId !== f.senderId) return false;
      if (f.dateFrom && day < f.dateFrom) return false;
      if (f.dateTo && day > f.dateTo) return false;
      if (f.transactionType && t.type !== f.transactionType) return false;
      if (f.templateType && t.templateType !== f.templateType) return false;
      if (f.billingClass && t.billingClass !== f.billingClass) return false;
      return true;
    })
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  const sum = (type: Tx["type"]) => rows.filter((t) => t.type === type).reduce((s, t) => s + t.amount, 0);
  const credits = sum("credit");
  const debits = sum("debit");
  const refunds = sum("refund");
  const adjustments = sum("adjustment");
  return {
    ids: rows.map((t) => t.id),
    credits,
    debits,
    refunds,
    adjustments,
    balance: credits + refunds + adjustments - debits,
  };
}

async function readAll(path: string, token: string, query: Record<string, string | number>) {
  const ids: string[] = [];
  let first: { summary: Record<string, number>; pagination: Record<string, number> } | undefined;
  for (let page = 1; page < 10; page++) {
    const res = await call("GET", path, { token, query: { ...query, page, limit: 100 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    first ??= res.body.data;
    ids.push(...res.body.data.transactions.map((t: { transactionUid: string }) => t.transactionUid));
    if (!res.body.data.pagination.hasMore) break;
  }
  return { ids, first: first as NonNullable<typeof first> };
}

function expectSummary(summary: Record<string, number | string>, want: ReturnType<typeof expectedFor>) {
  expect(summary.currency).toBe("USD");
  for (const k of ["credits", "debits", "refunds", "adjustments", "balance"] as const) {
    expect(summary[k]).toBeCloseTo(want[k], 6);
  }
}

describe("billing history (ledger)", () => {
  it("lists the account's ledger newest first, with the public shape and the summary", async () => {
    const res = await call("GET", PATH, { token: me.globalToken });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual([
      "pagination",
      "phoneNumberId",
      "scope",
      "senderId",
      "summary",
      "transactions",
    ]);
    expect(data.scope).toBe("user");
    const want = expectedFor({});
    expect(data.pagination).toEqual({ page: 1, limit: 50, total: 135, totalPages: 3, count: 50, hasMore: true });
    expect(data.transactions.map((t: { transactionUid: string }) => t.transactionUid)).toEqual(want.ids.slice(0, 50));
    expectSummary(data.summary, want);
    expect(data.summary.balance).toBeCloseTo(100 + 50.5 + 5 - 2.5 + 0.05 - want.debits, 6);
    const topUp = ledger[0] as Tx;
    const all = await readAll(PATH, me.globalToken, {});
    expect(all.ids).toEqual(want.ids);
    const last = await call("GET", PATH, { token: me.globalToken, query: { page: 2, limit: 100 } });
    const row = last.body.data.transactions.find((t: { transactionUid: string }) => t.transactionUid === topUp.id);
    expect(row).toEqual({
      transactionUid: topUp.id,
      type: "credit",
      amount: 100,
      currency: "USD",
      description: "Top-up",
      senderId: null,
      phoneNumberId: null,
      billingUid: null,
      templateType: null,
      billingClass: null,
      pricingCategory: null,
      createdAt: topUp.createdAt.toISOString(),
    });
  });

  it.each<[string, () => { query: Record<string, string>; filters: F }]>([
    ["transactionType=debit", () => ({ query: { transactionType: "debit" }, filters: { transactionType: "debit" } })],
    [
      "transactionType=adjustment",
      () => ({ query: { transactionType: "adjustment" }, filters: { transactionType: "adjustment" } }),
    ],
    ["templateType", () => ({ query: { templateType: "utility" }, filters: { templateType: "utility" } })],
    ["billingClass=free", () => ({ query: { billingClass: "free" }, filters: { billingClass: "free" } })],
    [
      "dates",
      () => ({
        query: { dateFrom: dayString(5), dateTo: dayString(21) },
        filters: { dateFrom: dayString(5), dateTo: dayString(21) },
      }),
    ],
    ["senderId", () => ({ query: { senderId: me.otherSender.phoneNumber }, filters: { senderId: me.otherSender.id } })],
    [
      "phoneNumberId",
      () => ({ query: { phoneNumberId: me.sender.phoneNumberId ?? "" }, filters: { senderId: me.sender.id } }),
    ],
    [
      "several",
      () => ({
        query: {
          senderId: me.sender.phoneNumber,
          billingClass: "payable",
          templateType: "marketing",
          dateTo: dayString(15),
        },
        filters: { senderId: me.sender.id, billingClass: "payable", templateType: "marketing", dateTo: dayString(15) },
      }),
    ],
  ])("filter %s", async (_n, make) => {
    const { query, filters } = make();
    const want = expectedFor(filters);
    const { ids, first } = await readAll(PATH, me.globalToken, query);
    expect(ids).toEqual(want.ids);
    expect(first.pagination.total).toBe(want.ids.length);
    expectSummary(first.summary, want);
  });

  it("GET /billing/history/{senderId} is the same ledger for one sender", async () => {
    const want = expectedFor({ senderId: me.sender.id, transactionType: "debit" });
    const path = `${PATH}/${encodeURIComponent(me.sender.phoneNumber)}`;
    const { ids, first } = await readAll(path, me.globalToken, { transactionType: "debit" });
    expect(ids).toEqual(want.ids);
    expectSummary(first.summary, want);
    const res = await call("GET", path, { token: me.scopedToken });
    expect(res.status).toBe(200);
    expect(res.body.data.scope).toBe("sender");
    expect(res.body.data.senderId).toBe(me.sender.phoneNumber);
    expect(res.headers.get("X-Service-Phone-Number-Id")).toBe(me.sender.phoneNumberId);
    const row = res.body.data.transactions[0];
    expect(row.senderId).toBe(me.sender.phoneNumber);
    expect(row.phoneNumberId).toBe(me.sender.phoneNumberId);
  });

  it("scopes: number-scoped tokens stay on their sender; unknown senders are not found", async () => {
    const scoped = await call("GET", PATH, { token: me.scopedToken, query: { limit: 100 } });
    expect(scoped.body.data.pagination.total).toBe(expectedFor({ senderId: me.sender.id }).ids.length);
    const otherPath = await call("GET", `${PATH}/${encodeURIComponent(me.otherSender.phoneNumber)}`, {
      token: me.scopedToken,
    });
    expect(otherPath.status).toBe(403);
    expect(otherPath.body.error_code).toBe("SENDER_NOT_ALLOWED");
    const otherQuery = await call("GET", PATH, {
      token: me.scopedToken,
      query: { senderId: me.otherSender.phoneNumber },
    });
    expect(otherQuery.status).toBe(403);
    expect(otherQuery.body.error_code).toBe("SENDER_NOT_ALLOWED");
    const theirs = await call("GET", `${PATH}/${encodeURIComponent(other.sender.phoneNumber)}`, {
      token: me.globalToken,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error_code).toBe("SENDER_NOT_FOUND");
    const v2 = await call("GET", "/api/v2/billing/history", { token: me.globalToken });
    expect(v2.status).toBe(404);
    expect(v2.body.error_code).toBe("NOT_FOUND");
  });

  it("never includes another customer's entries", async () => {
    const { ids } = await readAll(PATH, me.globalToken, {});
    const mineIds = new Set(ledger.map((t) => t.id));
    expect(ids.every((id) => mineIds.has(id))).toBe(true);
    const foreign = await call("GET", PATH, {
      token: me.globalToken,
      query: { phoneNumberId: other.sender.phoneNumberId ?? "" },
    });
    expect(foreign.body.data.transactions).toEqual([]);
    expect(foreign.body.data.summary.balance).toBe(0);
  });

  it("validation: bad transactionType, billingClass, templateType or date is 400; paging clamps (8.2)", async () => {
    for (const [field, value] of [
      ["transactionType", "charge"],
      ["billingClass", "paid"],
      ["templateType", "promo"],
      ["dateFrom", "2026-02-30"],
    ] as const) {
      const res = await call("GET", PATH, { token: me.globalToken, query: { [field]: value } });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(res.body.details.fields[0].path).toBe(`query.${field}`);
    }
    const clamped = await call("GET", PATH, { token: me.globalToken, query: { page: 0, limit: 500 } });
    expect(clamped.status).toBe(200);
    expect(clamped.body.data.pagination).toMatchObject({
      page: 1,
      limit: 100,
      total: 135,
      totalPages: 2,
      count: 100,
      hasMore: true,
    });
  });
});

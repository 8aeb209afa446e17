// The billing explorer's services: totals, cost per day and the streamed CSV export,
// checked against a plain-JS computation over seeded records.
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { billingListSql, getBillingRecord } from "@/lib/domains/billing/messages";
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
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { CSV_COLUMNS, streamBillingCsv } from "./csv";
import { BILLING_SORT_FIELDS, type BillingExportInput, BillingMessagesQuery, type BillingSortField } from "./schemas";
import type { BillingRecordRow } from "./serializers";
import { billingTotals, costPerDay } from "./totals";

let me: TestCustomer;
let other: TestCustomer;
let mine: SeedRecord[];
let principal: Principal;

beforeAll(async () => {
  [me, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  mine = makeRecords(me.customer.id, [me.sender, me.otherSender], 300, 7);
  await insertRecords([...mine, ...makeRecords(other.customer.id, [other.sender], 40, 7)]);
  principal = memberPrincipal(me.customer.id);
});

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

const cases: [string, () => { sender?: TestCustomer["sender"]; f: Filters }][] = [
  ["everything", () => ({ f: {} })],
  ["one sender", () => ({ sender: me.sender, f: { senderId: me.sender.id } })],
  ["payable in a date range", () => ({ f: { billable: "payable", dateFrom: dayString(3), dateTo: dayString(33) } })],
  [
    "status + templateType",
    () => ({
      sender: me.otherSender,
      f: { senderId: me.otherSender.id, status: "delivered", templateType: "marketing" },
    }),
  ],
];

describe("billing totals and cost per day", () => {
  it.each(cases)("%s", async (_name, make) => {
    const { sender, f } = make();
    const rows = mine.filter((r) => matches(r, f));
    const payable = rows.filter((r) => r.billingClass === "payable");
    const totals = await billingTotals(principal, sender, f);
    expect(totals.messages).toBe(rows.length);
    expect(totals.payable).toBe(payable.length);
    expect(totals.cost).toBeCloseTo(sum(payable.map((r) => r.rate)), 6);

    const groups = new Map<string, { day: string; category: string | null; cost: number; messages: number }>();
    for (const r of rows) {
      const day = r.createdAt.toISOString().slice(0, 10);
      const key = `${day}|${r.pricingCategory}`;
      const g = groups.get(key) ?? { day, category: r.pricingCategory, cost: 0, messages: 0 };
      g.messages += 1;
      if (r.billingClass === "payable") g.cost += r.rate;
      groups.set(key, g);
    }
    const want = [...groups.values()].sort((a, b) =>
      a.day !== b.day ? (a.day < b.day ? -1 : 1) : (a.category ?? "\uffff") < (b.category ?? "\uffff") ? -1 : 1,
    );
    const got = await costPerDay(principal, sender, f);
    expect(got.map((g) => [g.day, g.category, g.messages])).toEqual(want.map((g) => [g.day, g.category, g.messages]));
    got.forEach((g, i) => {
      expect(g.cost).toBeCloseTo(want[i]?.cost ?? -1, 6);
    });
  });

  it("a number-scoped principal cannot read another sender", async () => {
    const scoped: Principal = systemPrincipal(me.customer.id, me.sender.id);
    await expect(billingTotals(scoped, me.otherSender, {})).rejects.toMatchObject({ code: "SENDER_NOT_ALLOWED" });
    await expect(billingTotals(scoped, undefined, {})).rejects.toMatchObject({ code: "SENDER_NOT_ALLOWED" });
    expect((await billingTotals(scoped, me.sender, {})).messages).toBe(
      mine.filter((r) => r.senderId === me.sender.id).length,
    );
  });

  it("getBillingRecord reads one record in the tenant scope only", async () => {
    const r = mine[5] as SeedRecord;
    expect(await getBillingRecord(principal, undefined, r.id)).toEqual(toPublic(r));
    const theirs: Principal = memberPrincipal(other.customer.id);
    await expect(getBillingRecord(theirs, undefined, r.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

async function readCsv(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks += 1;
    text += decoder.decode(value, { stream: true });
  }
  return { text, chunks };
}

function exportQuery(f: Filters, sortBy: BillingSortField, sortOrder: "ASC" | "DESC"): BillingExportInput {
  const { senderId: _s, ...rest } = f;
  return { ...rest, sortBy, sortOrder };
}

describe("CSV export (keyset batches)", () => {
  const sorts: [BillingSortField, "ASC" | "DESC"][] = [
    ["created_at", "DESC"],
    ["created_at", "ASC"],
    ["pricing_category", "ASC"],
    ["pricing_category", "DESC"],
    ["rate", "ASC"],
    ["rate", "DESC"],
    ["status", "DESC"],
    ["message_timestamp", "ASC"],
  ];
  it.each(sorts)("sortBy=%s %s: every filtered row once, in order, across batches of 37", async (sortBy, order) => {
    const f: Filters = { dateFrom: dayString(2) };
    const want = sortRecords(
      mine.filter((r) => matches(r, f)),
      sortBy,
      order,
    );
    const { text, chunks } = await readCsv(streamBillingCsv(principal, undefined, exportQuery(f, sortBy, order), 37));
    expect(chunks).toBeGreaterThan(5);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    expect(parsed.data.map((row) => row.billingUid)).toEqual(want.map((r) => r.id));
    const first = want[0] as SeedRecord;
    const asText = Object.fromEntries(
      Object.entries(toPublic(first)).map(([k, v]) => [k, v === null ? "" : String(v)]),
    );
    expect(parsed.data[0]).toEqual(asText);
  });

  it("one sender, several filters; an empty set is the header alone", async () => {
    const f: Filters = { senderId: me.otherSender.id, billable: "true", status: "read" };
    const want = sortRecords(mine.filter((r) => matches(r, f)));
    const { text } = await readCsv(streamBillingCsv(principal, me.otherSender, exportQuery(f, "created_at", "DESC")));
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.data.map((row) => row.billingUid)).toEqual(want.map((r) => r.id));
    const empty = await readCsv(
      streamBillingCsv(principal, undefined, exportQuery({ messageId: "none" }, "created_at", "DESC")),
    );
    expect(empty.text).toBe(`${CSV_COLUMNS.join(",")}\n`);
  });
});

describe("list page SQL: direct and deferred-join forms agree", () => {
  it.each(BILLING_SORT_FIELDS.flatMap((s) => [[s, "ASC"] as const, [s, "DESC"] as const]))(
    "sortBy=%s %s, pages of 40 with filters",
    async (sortBy, sortOrder) => {
      const f: Filters = { dateTo: dayString(50) };
      const want = sortRecords(
        mine.filter((r) => matches(r, f)),
        sortBy,
        sortOrder,
      ).map((r) => r.id);
      for (const page of [1, 3, Math.ceil(want.length / 40)]) {
        const q = BillingMessagesQuery.parse({ dateTo: f.dateTo, sortBy, sortOrder, page: String(page), limit: "40" });
        const slice = want.slice((page - 1) * 40, page * 40);
        for (const deferFrom of [0, Number.MAX_SAFE_INTEGER]) {
          const rows = await db.$queryRaw<BillingRecordRow[]>(billingListSql(principal, undefined, q, deferFrom).page);
          expect(rows.map((r) => r.id)).toEqual(slice);
        }
      }
    },
  );
});

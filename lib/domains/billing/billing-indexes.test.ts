// Index proof: for every documented filter of GET /billing/messages (docs/api/billing.md; with the customer scope) and
// every sortBy, the SQL the billing services run is planned on an index of
// BillingRecord, never a sequential scan (EXPLAIN with enable_seqscan off: a plan that
// still scans the table sequentially has no usable index). Runs on PGlite and PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { insertRecords, makeRecords } from "@/test/billing-fixtures";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { csvBatchSql } from "./csv";
import { billingListSql } from "./messages";
import { BILLING_SORT_FIELDS, BillingExportQuery, BillingMessagesQuery } from "./schemas";
import { billingTotalsSql, costPerDaySql } from "./totals";

let me: TestCustomer;
let principal: Principal;

beforeAll(async () => {
  me = await createTestCustomer();
  principal = systemPrincipal(me.customer.id);
  await insertRecords(makeRecords(me.customer.id, [me.sender, me.otherSender], 200, 3));
});

const FILTERS: [string, Record<string, string>, boolean][] = [
  ["customer only", {}, false],
  ["senderId", {}, true],
  ["phoneNumberId", { phoneNumberId: "1099" }, false],
  ["dateFrom", { dateFrom: "2026-09-05" }, false],
  ["dateTo", { dateTo: "2026-10-05" }, false],
  ["dateFrom + dateTo", { dateFrom: "2026-09-05", dateTo: "2026-10-05" }, false],
  ["status", { status: "delivered" }, false],
  ["templateType", { templateType: "marketing" }, false],
  ["billable=true", { billable: "true" }, false],
  ["billable=payable", { billable: "payable" }, false],
  ["pricingType", { pricingType: "regular" }, false],
  ["messageId", { messageId: "wamid.x" }, false],
  ["recipient", { recipient: "+15550001001" }, false],
  ["conversationId", { conversationId: "conv-1" }, false],
  ["three filters", { status: "delivered", templateType: "marketing", billable: "payable" }, false],
];

async function explain(sql: Prisma.Sql): Promise<string> {
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    const rows = await tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${sql}`);
    return rows.map((r) => Object.values(r).join(" ")).join("\n");
  });
}

function expectIndexed(plan: string) {
  expect(plan, plan).not.toMatch(/Seq Scan on "BillingRecord"/);
  // A customer-scoped index, or the unique messageId index (one row at most).
  expect(plan, plan).toMatch(
    /(Index Scan|Index Only Scan|Bitmap Index Scan)( Backward)? (using|on) "BillingRecord_(customerId_|messageId_key)/,
  );
}

describe("billing SQL is planned on BillingRecord indexes", () => {
  for (const [name, params, bySender] of FILTERS) {
    it(`${name}: list page and count for every sortBy, totals, chart and CSV`, async () => {
      const sender: Sender | undefined = bySender ? me.sender : undefined;
      for (const sortBy of BILLING_SORT_FIELDS) {
        for (const sortOrder of ["ASC", "DESC"]) {
          // Page 3 is read directly, page 100 (offset 4,950) through the deferred join.
          const q = BillingMessagesQuery.parse({ ...params, sortBy, sortOrder, page: "3" });
          const { page, count } = billingListSql(principal, sender, q);
          expectIndexed(await explain(page));
          const deep = BillingMessagesQuery.parse({ ...params, sortBy, sortOrder, page: "100" });
          expectIndexed(await explain(billingListSql(principal, sender, deep).page));
          if (sortBy === "created_at" && sortOrder === "DESC") expectIndexed(await explain(count));
          const e = BillingExportQuery.parse({ ...params, sortBy, sortOrder });
          expectIndexed(await explain(csvBatchSql(principal, sender, e, undefined)));
        }
      }
      const f = BillingMessagesQuery.parse(params);
      expectIndexed(await explain(billingTotalsSql(principal, sender, f)));
      expectIndexed(await explain(costPerDaySql(principal, sender, f)));
    });
  }

  it("CSV keyset continuation (after a cursor) stays on an index, NULL categories included", async () => {
    for (const sortBy of BILLING_SORT_FIELDS) {
      for (const sortOrder of ["ASC", "DESC"]) {
        const e = BillingExportQuery.parse({ sortBy, sortOrder });
        const value =
          sortBy.endsWith("_at") || sortBy === "message_timestamp" ? new Date() : sortBy === "rate" ? "0.01" : "x";
        expectIndexed(await explain(csvBatchSql(principal, undefined, e, { value, id: "c0" })));
        if (sortBy === "pricing_category")
          expectIndexed(await explain(csvBatchSql(principal, undefined, e, { value: null, id: "c0" })));
      }
    }
  });
});

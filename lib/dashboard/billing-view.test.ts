// The billing explorer's view (docs/dashboard.md "Billing"): status and pricing type are the
// lists the form offers, any case; a value outside them is refused naming the field, never
// read as "no filter" (the unfiltered view) nor as a filter matching nothing. On the database:
// an accepted view lists what the API lists for the same filters.
import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import type { Principal } from "@/lib/domains/auth/principal";
import { listBillingRecords } from "@/lib/domains/billing/messages";
import { billingTotals } from "@/lib/domains/billing/totals";
import { insertRecords, makeRecords, matches, type SeedRecord } from "@/test/billing-fixtures";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { parseExportView, parseHistoryView, parseMessagesView } from "./billing-view";

let me: TestCustomer;
let mine: SeedRecord[];
let principal: Principal;

beforeAll(async () => {
  me = await createTestCustomer();
  mine = makeRecords(me.customer.id, [me.sender], 120, 11);
  await insertRecords(mine);
  principal = memberPrincipal(me.customer.id);
});

describe("the billing view's status and pricing type", () => {
  it.each([
    ["status", "bogus", '"bogus" is not a billing status: use pending, accepted, sent, delivered, read or failed'],
    ["status", "expired", '"expired" is not a billing status: use pending, accepted, sent, delivered, read or failed'],
    ["pricingType", "bogus", '"bogus" is not a pricing type: use regular, free_customer_service or free_entry_point'],
  ])("%s=%s is refused naming the field and the values it takes", (field, value, message) => {
    const view = parseMessagesView({ templateType: "marketing", [field]: value });
    expect(view.query).toBeNull();
    expect(view.refusal).toEqual({ field, message });
    // The CSV export of the same URL is refused too (a 400 from its dashboard route).
    let refused: unknown;
    try {
      parseExportView({ [field]: value });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ZodError);
    expect((refused as ZodError).issues.map((i) => i.message)).toEqual([message]);
  });

  it("any other refused filter is named too, and the ledger's view refuses the same way", () => {
    expect(parseMessagesView({ dateFrom: "2026-10-02", dateTo: "2026-10-01" }).refusal).toEqual({
      field: "dateFrom",
      message: "dateFrom must be on or before dateTo",
    });
    expect(parseHistoryView({ transactionType: "gift" }).refusal?.field).toBe("transactionType");
    expect(parseHistoryView({ transactionType: "gift" }).query).toBeNull();
  });

  it("accepts the values in any case and lists exactly the matching records", async () => {
    for (const [params, filters] of [
      [{ status: "Delivered" }, { status: "delivered" }],
      [{ status: " FAILED " }, { status: "failed" }],
      [{ pricingType: "Free_Entry_Point" }, { pricingType: "free_entry_point" }],
      [
        { status: "read", pricingType: "REGULAR", templateType: "marketing" },
        { status: "read", pricingType: "regular", templateType: "marketing" as const },
      ],
    ] as const) {
      const view = parseMessagesView({ ...params, limit: "200" });
      expect(view.refusal).toBeNull();
      if (!view.query) throw new Error("refused");
      const want = mine.filter((r) => matches(r, filters));
      expect(want.length).toBeGreaterThan(0);
      const list = await listBillingRecords(principal, undefined, view.query);
      expect(list.billingRecords.map((r) => r.billingUid).sort()).toEqual(want.map((r) => r.id).sort());
      expect((await billingTotals(principal, undefined, view.query)).messages).toBe(want.length);
    }
  });

  it("the API keeps its open status (another billing status may exist), now in any case", async () => {
    const upper = await call("GET", "/api/v3/billing/messages", {
      token: me.globalToken,
      query: { status: "Delivered", limit: "200" },
    });
    expect(upper.status).toBe(200);
    const delivered = mine.filter((r) => r.status === "delivered").length;
    expect(upper.body.data.pagination.total).toBe(delivered);
    const other = await call("GET", "/api/v3/billing/messages", {
      token: me.globalToken,
      query: { status: "expired" },
    });
    expect(other.status).toBe(200);
    expect(other.body.data.pagination.total).toBe(mine.filter((r) => r.status === "expired").length);
  });
});

// The ledger's one balance rule (ledger.ts): the send check's balance and the billing
// history summary agree, adjustments carrying their own sign.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, createTestCustomer } from "@/test/factory";
import { ledgerBalance } from "./ledger";

describe("ledger balance", () => {
  it("is credits + refunds + adjustments (signed) - debits, for the send check and the history alike", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    const row = (customerId: string, type: "credit" | "debit" | "refund" | "adjustment", amount: string) => ({
      customerId,
      type,
      amount,
    });
    await db.billingTransaction.createMany({
      data: [
        row(t.customer.id, "credit", "10"),
        row(t.customer.id, "debit", "2.5"),
        row(t.customer.id, "debit", "0.125"),
        row(t.customer.id, "refund", "1"),
        row(t.customer.id, "adjustment", "-0.75"),
        row(t.customer.id, "adjustment", "0.5"),
        row(other.customer.id, "credit", "99"),
      ],
    });
    expect((await ledgerBalance(t.customer.id)).toString()).toBe("8.125");
    expect((await ledgerBalance(other.customer.id)).toString()).toBe("99");
    const history = await call("GET", "/api/v3/billing/history", { token: t.globalToken });
    expect(history.status).toBe(200);
    expect(history.body.data.summary.balance).toBe(8.125);
    const none = await createTestCustomer();
    expect((await ledgerBalance(none.customer.id)).toString()).toBe("0");
  });
});

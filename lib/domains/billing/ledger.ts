// The ledger's one balance rule (docs/api/billing.md "The ledger", docs/event-pipeline.md "Statuses -> billing records and ledger"):
// debit, credit and refund amounts are stored positive (the type gives the sign); an
// adjustment carries its own sign (positive adds to the balance, negative takes away).
// balance = credits + refunds + adjustments - debits. The send check (lib/domains/billing/send-balance.ts)
// and the billing history summary (history.ts) both sum SIGNED_AMOUNT.
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** One ledger row's effect on the balance, for a query over "BillingTransaction" t. */
export const SIGNED_AMOUNT = Prisma.sql`CASE WHEN t."type" = 'debit' THEN -t."amount" ELSE t."amount" END`;

/** The customer's balance over the whole ledger, summed in SQL (numeric: exact). */
export async function ledgerBalance(customerId: string, tx: Tx = db): Promise<Prisma.Decimal> {
  const [row] = await tx.$queryRaw<{ balance: string }[]>(Prisma.sql`
    SELECT COALESCE(SUM(${SIGNED_AMOUNT}), 0)::text AS "balance"
    FROM "BillingTransaction" t WHERE t."customerId" = ${customerId}`);
  return new Prisma.Decimal(row?.balance ?? 0);
}

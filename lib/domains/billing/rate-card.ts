// Rates per pricing category: operator-set globally, optionally overridden per customer.

import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { normalizeCategory, PRICING_CATEGORIES } from "./pricing-categories";

export { normalizeCategory, PRICING_CATEGORIES };

export async function setRate(input: { category: string; rate: number; customerId?: string; currency?: string }) {
  const pricingCategory = normalizeCategory(input.category);
  const scope = input.customerId ?? "global";
  return db.rateCard.upsert({
    where: { scope_pricingCategory: { scope, pricingCategory } },
    create: {
      scope,
      customerId: input.customerId ?? null,
      pricingCategory,
      rate: new Prisma.Decimal(input.rate),
      currency: input.currency ?? "USD",
    },
    update: { rate: new Prisma.Decimal(input.rate), ...(input.currency ? { currency: input.currency } : {}) },
  });
}

/** The customer's rate for a category: their override, else the global rate, else 0. */
export async function rateFor(customerId: string, category: string | null | undefined, tx: Tx = db) {
  if (!category) return new Prisma.Decimal(0);
  const pricingCategory = normalizeCategory(category);
  const rows = await tx.rateCard.findMany({
    where: { pricingCategory, scope: { in: [customerId, "global"] } },
  });
  const row = rows.find((r) => r.scope === customerId) ?? rows.find((r) => r.scope === "global");
  return row?.rate ?? new Prisma.Decimal(0);
}

/**
 * rateFor for every category of one customer at once, from one raw statement (the callback
 * processor's, which runs in a plain transaction: lib/db/plain-tx.ts). The rate is exact
 * numeric text as Prisma's Decimal writes it ("0.02", "0"), the form billing rows compare.
 */
export async function customerRates(tx: Tx, customerId: string): Promise<(category: string) => string> {
  const rows = await tx.$queryRawUnsafe<{ scope: string; pricingCategory: string; rate: string }[]>(
    `SELECT "scope", "pricingCategory", "rate"::text AS "rate" FROM "RateCard" WHERE "scope" = ANY($1::text[])`,
    [customerId, "global"],
  );
  const rates = new Map<string, string>();
  // The customer's override wins over the global rate.
  for (const scope of ["global", customerId])
    for (const r of rows) if (r.scope === scope) rates.set(r.pricingCategory, new Prisma.Decimal(r.rate).toString());
  return (category) => rates.get(normalizeCategory(category)) ?? "0";
}

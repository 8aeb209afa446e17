// The balance step of the send pipeline (docs/messaging.md "The send pipeline"): the billing
// balance a send must respect (the ledger's balance rule: lib/domains/billing/ledger.ts),
// against the expected price of the message from the rate card.
// A soft check before sending (the debit itself is written when the provider reports the
// message payable): balances and rates are cached briefly per process, and a cached balance
// that looks too low is always re-read, so a top-up takes effect at once.

import { ApiError } from "@/lib/core/errors";
import { SwrCache } from "@/lib/core/swr-cache";
import { Prisma } from "@/lib/generated/prisma/client";
import { ledgerBalance } from "./ledger";
import { rateFor } from "./rate-card";

// No stale serving: a balance older than its TTL is read again before the send.
const balances = new SwrCache<Prisma.Decimal>({ ttlMs: 2_000, maxEntries: 10_000 });
const rates = new SwrCache<Prisma.Decimal>({ ttlMs: 5_000, maxEntries: 10_000 });

/** The balance, from a cache of at most two seconds. */
export const recentBalance = (customerId: string) => balances.get(customerId, () => ledgerBalance(customerId));

/** Free categories (service) cost nothing; others cost the customer's rate for the category. */
async function expectedPrice(customerId: string, pricingCategory: string): Promise<Prisma.Decimal> {
  if (pricingCategory === "service") return new Prisma.Decimal(0);
  return rates.get(`${customerId}|${pricingCategory}`, () => rateFor(customerId, pricingCategory));
}

/**
 * Per send (its pricing category), INSUFFICIENT_BALANCE (402) when the balance does not
 * cover its price, else undefined. Each send is held against the balance on its own, as a
 * single send is. `balance` may be a read already under way (the pipeline starts it beside
 * its other checks); it is only awaited when a send has a price, and re-read once, fresh,
 * when it looks too low for one of them. One rate read per category of the batch.
 */
export async function balanceRefusals(
  customerId: string,
  pricingCategories: readonly string[],
  balance: Promise<Prisma.Decimal> = recentBalance(customerId),
): Promise<(ApiError | undefined)[]> {
  const categories = [...new Set(pricingCategories)];
  const priceOf = new Map(
    await Promise.all(categories.map(async (c) => [c, await expectedPrice(customerId, c)] as const)),
  );
  const prices = pricingCategories.map((c) => priceOf.get(c) ?? new Prisma.Decimal(0));
  const highest = prices.reduce((max, p) => (p.gt(max) ? p : max), new Prisma.Decimal(0));
  if (highest.lte(0)) return prices.map(() => undefined);
  let held = await balance;
  if (held.lt(highest)) {
    held = await ledgerBalance(customerId);
    balances.set(customerId, held);
  }
  return prices.map((price, i) =>
    price.lte(0) || held.gte(price)
      ? undefined
      : new ApiError("INSUFFICIENT_BALANCE", "Your balance does not cover this message; add credit and try again", {
          balance: held.toNumber(),
          required: price.toNumber(),
          pricingCategory: pricingCategories[i],
          providerCode: 131042,
        }),
  );
}

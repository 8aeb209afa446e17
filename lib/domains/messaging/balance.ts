// The billing balance a send must respect (the ledger's balance rule: lib/domains/billing/ledger.ts),
// against the expected price of the message from the rate card.
// A soft check before sending (the debit itself is written when the provider reports the
// message payable): balances and rates are cached briefly per process, and a cached balance
// that looks too low is always re-read, so a top-up takes effect at once.

import { SwrCache } from "@/lib/core/swr-cache";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import { rateFor } from "@/lib/domains/billing/rate-card";
import { Prisma } from "@/lib/generated/prisma/client";
import { MessagingError } from "./errors";

// No stale serving: a balance older than its TTL is read again before the send.
const balances = new SwrCache<Prisma.Decimal>({ ttlMs: 2_000, maxEntries: 10_000 });
const rates = new SwrCache<Prisma.Decimal>({ ttlMs: 5_000, maxEntries: 10_000 });

/** The balance, from a cache of at most two seconds. */
export const recentBalance = (customerId: string) => balances.get(customerId, () => ledgerBalance(customerId));

/** Free categories (service) cost nothing; others cost the customer's rate for the category. */
export async function expectedPrice(customerId: string, pricingCategory: string): Promise<Prisma.Decimal> {
  if (pricingCategory === "service") return new Prisma.Decimal(0);
  return rates.get(`${customerId}|${pricingCategory}`, () => rateFor(customerId, pricingCategory));
}

/**
 * Refuses with INSUFFICIENT_BALANCE (402) when the balance does not cover the price.
 * `balance` may be a read already under way (sends start it beside their other checks).
 */
export async function assertCanAfford(
  customerId: string,
  pricingCategory: string,
  balance: Promise<Prisma.Decimal> = recentBalance(customerId),
): Promise<void> {
  const price = await expectedPrice(customerId, pricingCategory);
  if (price.lte(0)) return;
  if ((await balance).gte(price)) return;
  const fresh = await ledgerBalance(customerId);
  balances.set(customerId, fresh);
  if (fresh.lt(price)) {
    throw new MessagingError(
      "INSUFFICIENT_BALANCE",
      "Your balance does not cover this message; add credit and try again",
      {
        balance: fresh.toNumber(),
        required: price.toNumber(),
        pricingCategory,
        providerCode: 131042,
      },
    );
  }
}

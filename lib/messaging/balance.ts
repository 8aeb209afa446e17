// The billing balance a send must respect: the ledger (BillingTransaction) credits, refunds
// and adjustments minus debits, against the expected price of the message from the rate card.
// A soft check before sending (the debit itself is written when the provider reports the
// message payable): balances and rates are cached briefly per process, and a cached balance
// that looks too low is always re-read, so a top-up takes effect at once.
import { rateFor } from "@/lib/billing/rate-card";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { MessagingError } from "./errors";

const BALANCE_TTL_MS = 2_000;
const RATE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
type Entry = { value: Promise<Prisma.Decimal>; at: number };
const balances = new Map<string, Entry>();
const rates = new Map<string, Entry>();

function cached(map: Map<string, Entry>, key: string, ttl: number, load: () => Promise<Prisma.Decimal>) {
  const hit = map.get(key);
  if (hit && Date.now() - hit.at < ttl) return hit.value;
  if (map.size >= MAX_ENTRIES) map.clear();
  const value = load();
  map.set(key, { value, at: Date.now() });
  value.catch(() => map.delete(key));
  return value;
}

export async function ledgerBalance(customerId: string): Promise<Prisma.Decimal> {
  const sums = await db.billingTransaction.groupBy({ by: ["type"], where: { customerId }, _sum: { amount: true } });
  let balance = new Prisma.Decimal(0);
  for (const row of sums) {
    const amount = row._sum.amount ?? new Prisma.Decimal(0);
    balance = row.type === "debit" ? balance.minus(amount) : balance.plus(amount);
  }
  return balance;
}

/** The balance, from a cache of at most two seconds. */
export const recentBalance = (customerId: string) =>
  cached(balances, customerId, BALANCE_TTL_MS, () => ledgerBalance(customerId));

/** Free categories (service) cost nothing; others cost the customer's rate for the category. */
export async function expectedPrice(customerId: string, pricingCategory: string): Promise<Prisma.Decimal> {
  if (pricingCategory === "service") return new Prisma.Decimal(0);
  return cached(rates, `${customerId}|${pricingCategory}`, RATE_TTL_MS, () => rateFor(customerId, pricingCategory));
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
  balances.set(customerId, { value: Promise.resolve(fresh), at: Date.now() });
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

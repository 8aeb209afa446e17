// What a broadcast's sends cost, and the balance check before they are queued
// (docs/broadcasts.md "Balance"): the start, and "retry failed", refuse alike.
import { ApiError } from "@/lib/core/errors";
import type { Tx } from "@/lib/db";
import { rateFor } from "@/lib/domains/billing/rate-card";
import type { Prisma } from "@/lib/generated/prisma/client";

/** n sends of a template of this category: the customer's rate x n, in the customer's currency. */
export async function costOf(
  tx: Tx,
  customerId: string,
  category: string,
  n: number,
): Promise<{ cost: number; currency: string }> {
  const [rate, customer] = await Promise.all([
    rateFor(customerId, category, tx),
    tx.customer.findUnique({ where: { id: customerId }, select: { currency: true } }),
  ]);
  return { cost: rate.mul(n).toDecimalPlaces(6).toNumber(), currency: customer?.currency ?? "USD" };
}

/** 402 INSUFFICIENT_BALANCE with {estimate, balance, currency} when the balance is below the cost of `what`. */
export function assertBalanceCovers(
  balance: Prisma.Decimal,
  price: { cost: number; currency: string },
  what: string,
): void {
  if (!balance.lt(price.cost)) return;
  throw new ApiError(
    "INSUFFICIENT_BALANCE",
    `Your balance (${balance.toNumber()} ${price.currency}) does not cover ${what} (${price.cost} ${price.currency}); add credit and try again`,
    { estimate: price.cost, balance: balance.toNumber(), currency: price.currency },
  );
}

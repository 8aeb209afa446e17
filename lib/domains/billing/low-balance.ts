// The low-balance alert (docs/api/billing.md "Low balance"): each account has a threshold
// (Customer.lowBalanceThreshold, 5 by default, null = never). When its balance falls below it,
// billing.balance.low is raised once for that crossing: the flag lowBalanceAlerted is set in
// the same statement that decides, so two processes checking at once raise it once. When the
// balance is back at or above the threshold (a credit, a higher balance after a refund, a
// lower threshold) the flag is cleared and the next crossing raises it again.
//
// Debits are written by the callback ingest's transaction (status-writes.ts), the hot path:
// it only notes the customers it debited (noteSpending); once that transaction committed
// (spendingCommitted, lib/ingest/process-batch.ts) the check runs in its own
// transaction, once per customer for all the debits noted meanwhile.
import { log } from "@/lib/core/log";
import { db, type Tx } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { emitEvents } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { Prisma } from "@/lib/generated/prisma/client";
import { BalanceLow } from "./event-types";
import { SIGNED_AMOUNT } from "./ledger";
import { recentBalance } from "./send-balance";

export const BALANCE_LOW = BalanceLow.type;

type Crossed = { id: string; balance: string; threshold: string; currency: string };

/**
 * Decides for these customers in the caller's transaction: raises billing.balance.low for
 * each that is below its threshold and not yet alerted, re-arms each back at or above it.
 * Returns how many events it emitted.
 *
 * One statement: each customer's balance is summed once (a CTE read by both updates; the
 * ledger's rule, ledger.ts), and only for one with a threshold (without one, the decision
 * needs no balance). The sum is over the customer's whole ledger, as every balance read here
 * (no running balance is kept), so it runs only for the customers a committed batch debited
 * (noteSpending) and for a credit or a new threshold. The re-arm and the alert touch disjoint
 * rows (alerted or not when the statement began).
 */
export async function checkLowBalance(tx: Tx, customerIds: readonly string[], now = new Date()): Promise<number> {
  const ids = [...new Set(customerIds)].sort();
  if (ids.length === 0) return 0;
  const crossed = await tx.$queryRaw<Crossed[]>(Prisma.sql`
    WITH b AS (
      SELECT c."id", CASE WHEN c."lowBalanceThreshold" IS NOT NULL THEN
        COALESCE((SELECT SUM(${SIGNED_AMOUNT}) FROM "BillingTransaction" t WHERE t."customerId" = c."id"), 0) END AS "balance"
      FROM "Customer" c WHERE c."id" = ANY(${ids}::text[])
    ), rearmed AS (
      UPDATE "Customer" c SET "lowBalanceAlerted" = false FROM b
      WHERE c."id" = b."id" AND c."lowBalanceAlerted" AND (c."lowBalanceThreshold" IS NULL OR b."balance" >= c."lowBalanceThreshold")
    )
    UPDATE "Customer" c SET "lowBalanceAlerted" = true FROM b
    WHERE c."id" = b."id" AND NOT c."lowBalanceAlerted" AND c."lowBalanceThreshold" IS NOT NULL
      AND b."balance" < c."lowBalanceThreshold"
    RETURNING c."id", b."balance"::text AS "balance", c."lowBalanceThreshold"::text AS "threshold", c."currency"`);
  if (crossed.length === 0) return 0;
  // Account-wide news: each of the account's active destinations subscribed to the key gets
  // it, under its own sender (as the endpoint-health events, docs/event-pipeline.md).
  const targets = await tx.webhookDestination.findMany({
    where: { customerId: { in: crossed.map((c) => c.id) }, status: "ACTIVE", events: { has: BALANCE_LOW } },
    select: { id: true, sender: { select: { id: true, customerId: true, phoneNumber: true, phoneNumberId: true } } },
  });
  const byCustomer = new Map(crossed.map((c) => [c.id, c]));
  return emitEvents(
    tx,
    targets.flatMap((t) => {
      const c = byCustomer.get(t.sender.customerId);
      if (!c) return [];
      return [
        BalanceLow.of({
          sender: t.sender,
          dedupeKey: `${BALANCE_LOW}:${c.id}:${now.getTime()}:${t.id}`,
          data: {
            balance: Number(c.balance),
            threshold: Number(c.threshold),
            currency: c.currency,
            alertedAt: now.toISOString(),
          },
          createdAt: now,
          destinationId: t.id,
        }),
      ];
    }),
  );
}

/** Runs the check in a transaction of its own and wakes the delivery worker when it emitted. */
export async function checkLowBalanceNow(customerIds: readonly string[]): Promise<number> {
  const emitted = await db.$transaction((tx) => checkLowBalance(tx, customerIds));
  if (emitted > 0) deliveriesQueued();
  return emitted;
}

/** A debit noted in a transaction that never says it committed is checked after this at the latest. */
const FALLBACK_DELAY_MS = 1_000;
const noted = new Set<string>();
let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> = Promise.resolve();

function schedule(delayMs: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    const ids = [...noted];
    noted.clear();
    if (ids.length === 0) return;
    // A failed check is dropped: the customers' next debit checks again.
    running = running
      .then(() => checkLowBalanceNow(ids))
      .catch((err: unknown) => log.warn({ err, customers: ids.length }, "low-balance check failed"));
  }, delayMs);
  timer.unref();
}

/**
 * Drops the checks not yet started and waits for the one running: before a process (or a test
 * file) closes the database, so no check starts a transaction on a closing pool.
 */
export async function settleLowBalanceChecks(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  noted.clear();
  await running;
}

/** The ingest debited these customers in its open transaction: checked once it commits (spendingCommitted). */
export function noteSpending(customerIds: Iterable<string>): void {
  for (const id of customerIds) noted.add(id);
  if (noted.size > 0 && !timer) schedule(FALLBACK_DELAY_MS);
}

/** The ingest's transaction committed: check the customers it debited now. */
export function spendingCommitted(): void {
  if (noted.size > 0) schedule(0);
}

export type LowBalanceState = { balance: number; threshold: number | null; currency: string; low: boolean };

/** What the dashboard's banner and the ledger page show (the balance from the send check's short cache). */
export async function lowBalanceState(p: Principal): Promise<LowBalanceState> {
  const [customer, balance] = await Promise.all([
    db.customer.findUniqueOrThrow({
      where: { id: p.customerId },
      select: { lowBalanceThreshold: true, currency: true },
    }),
    recentBalance(p.customerId),
  ]);
  const threshold = customer.lowBalanceThreshold;
  return {
    balance: balance.toNumber(),
    threshold: threshold?.toNumber() ?? null,
    currency: customer.currency,
    low: threshold !== null && balance.lt(threshold),
  };
}

/** Sets the account's threshold (null = never) and decides at once against the new value. */
export async function setLowBalanceThreshold(p: Principal, threshold: string | null): Promise<void> {
  const emitted = await db.$transaction(async (tx) => {
    await tx.customer.update({
      where: { id: p.customerId },
      data: { lowBalanceThreshold: threshold === null ? null : new Prisma.Decimal(threshold) },
    });
    return checkLowBalance(tx, [p.customerId]);
  });
  if (emitted > 0) deliveriesQueued();
}

// Credits on the ledger (docs/api/billing.md "The ledger"): an operator's prepaid top-up
// (credit:add, docs/operator-cli.md) and the simulator's welcome credit of a new self-serve
// account. Each is one `credit` entry written in one transaction with what it changes about
// the balance.
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ledgerBalance } from "./ledger";
import { checkLowBalance } from "./low-balance";

export type CreditInput = {
  customerId: string;
  /** Positive, at most 6 decimals (the ledger's numeric). */
  amount: string;
  /** Shown in the ledger as the entry's description. */
  note?: string;
  /** Makes the credit happen once (a welcome credit); a second call with the key books nothing. */
  onceKey?: string;
};

export type CreditResult = {
  transactionId: string;
  customerId: string;
  amount: string;
  currency: string;
  description: string;
  /** The balance after the credit. */
  balance: string;
  /** False when onceKey had already booked its credit (the existing entry is answered). */
  created: boolean;
};

const DEFAULT_NOTE = "Prepaid top-up";

/** The onceKey of an account's welcome credit (docs/api/billing.md "Welcome credit"). */
export const welcomeCreditKey = (customerId: string) => `welcome:${customerId}`;

/** The welcome credit the account was given, if any (Get started says so). */
export async function welcomeCreditOf(customerId: string): Promise<{ amount: string; currency: string } | null> {
  const row = await db.billingTransaction.findFirst({
    where: { customerId, idempotencyKey: welcomeCreditKey(customerId), type: "credit" },
    select: { amount: true, currency: true },
  });
  return row ? { amount: row.amount.toString(), currency: row.currency } : null;
}

async function creditIn(tx: Tx, input: CreditInput): Promise<CreditResult> {
  const customer = await tx.customer.findUniqueOrThrow({ where: { id: input.customerId } });
  const description = input.note?.trim() || DEFAULT_NOTE;
  const existing = input.onceKey
    ? await tx.billingTransaction.findUnique({ where: { idempotencyKey: input.onceKey } })
    : null;
  const row =
    existing ??
    (await tx.billingTransaction.create({
      data: {
        customerId: customer.id,
        type: "credit",
        amount: new Prisma.Decimal(input.amount),
        currency: customer.currency,
        description,
        idempotencyKey: input.onceKey ?? null,
      },
    }));
  const balance = await ledgerBalance(customer.id, tx);
  // Back at or above the low-balance threshold: the next crossing alerts again.
  await checkLowBalance(tx, [customer.id]);
  return {
    transactionId: row.id,
    customerId: customer.id,
    amount: row.amount.toString(),
    currency: row.currency,
    description: row.description ?? description,
    balance: balance.toString(),
    created: existing === null,
  };
}

/** Books a credit (its own transaction, or the caller's). */
export function addCredit(input: CreditInput, tx?: Tx): Promise<CreditResult> {
  return tx ? creditIn(tx, input) : db.$transaction((t) => creditIn(t, input));
}

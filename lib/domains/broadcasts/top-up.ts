// After a top-up (credit:add): the account's broadcasts that paused with
// `insufficient_balance` go on by themselves once the balance covers their next message
// (docs/broadcasts.md "Balance"). Each by one conditional UPDATE, so only if it is still paused
// for that reason: a person's pause, or a broadcast cancelled meanwhile, stays as it is.
// If the credit covers only part of what is queued, the dispatcher pauses it again when the
// balance runs out, as before.
import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { addCredit, type CreditInput, type CreditResult } from "@/lib/domains/billing/credits";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import { rateFor } from "@/lib/domains/billing/rate-card";
import { findTemplate } from "@/lib/domains/templates/send-template";
import { resumeFunded } from "./lifecycle";

/** Resumes the customer's broadcasts paused for insufficient_balance that the balance now funds; their uids. */
async function resumeFundedBroadcasts(customerId: string): Promise<string[]> {
  const paused = await db.broadcast.findMany({
    where: { customerId, status: "PAUSED", pauseReason: "insufficient_balance" },
    orderBy: { createdAt: "asc" },
  });
  if (paused.length === 0) return [];
  const balance = await ledgerBalance(customerId);
  const resumed: string[] = [];
  for (const b of paused) {
    const template = await findTemplate(customerId, b.templateName, b.templateLanguage);
    const rate = await rateFor(customerId, template?.category ?? "MARKETING");
    if (balance.lt(rate)) continue;
    if (await resumeFunded(b.id)) resumed.push(b.id);
  }
  return resumed;
}

/**
 * An operator's top-up (credit:add): the ledger credit, then the paused broadcasts it funds.
 * The credit is booked first and stays booked: a failure to resume must not read as a failed
 * top-up (an operator would book it twice); it is logged, and nothing resumes.
 */
export async function topUp(input: CreditInput): Promise<CreditResult & { resumedBroadcasts: string[] }> {
  const credit = await addCredit(input);
  const resumedBroadcasts = await resumeFundedBroadcasts(input.customerId).catch((error: unknown) => {
    log.warn({ err: error, customerId: input.customerId }, "credit booked; resuming paused broadcasts failed");
    return [] as string[];
  });
  return { ...credit, resumedBroadcasts };
}

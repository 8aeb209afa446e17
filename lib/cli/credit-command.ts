// credit:add (docs/operator-cli.md "Credit and sender limits"): a prepaid top-up booked as one
// ledger credit through the billing service; broadcasts paused for want of credit go on.
import { log } from "@/lib/core/log";
import { addCredit } from "@/lib/domains/billing/credits";
import { resumeFundedBroadcasts } from "@/lib/domains/broadcasts/top-up";
import { defineCommand } from "./command";
import { requireCustomer } from "./require-customer";
import { CreditAddArgs } from "./schemas";

export const creditAdd = defineCommand({
  options: { customer: { type: "string" }, amount: { type: "string" }, note: { type: "string" } },
  schema: CreditAddArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const credit = await addCredit({ customerId: input.customer, amount: input.amount, note: input.note });
    // The credit is booked: a failure to resume must not read as a failed top-up (an
    // operator would book it twice). The dispatcher's next look at the broadcast is unchanged.
    const resumed = await resumeFundedBroadcasts(input.customer).catch((error: unknown) => {
      log.warn({ err: error, customerId: input.customer }, "credit booked; resuming paused broadcasts failed");
      return [] as string[];
    });
    const resumedText = resumed.length > 0 ? `; resumed broadcasts ${resumed.join(", ")}` : "";
    return {
      json: {
        transactionId: credit.transactionId,
        customerId: credit.customerId,
        type: "credit",
        amount: credit.amount,
        currency: credit.currency,
        description: credit.description,
        balance: credit.balance,
        resumedBroadcasts: resumed,
      },
      text: `Credited ${credit.amount} ${credit.currency} to ${credit.customerId} (${credit.description}); balance ${credit.balance} ${credit.currency}: ${credit.transactionId}${resumedText}`,
    };
  },
});

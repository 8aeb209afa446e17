// credit:add (docs/operator-cli.md "Credit and sender limits"): a prepaid top-up booked as one
// ledger credit through the billing service, for the customer named by its id, a member's email
// or a sender number; broadcasts paused for want of credit go on (lib/domains/broadcasts/top-up.ts).
import { formatMoney } from "@/lib/core/money";
import { topUp } from "@/lib/domains/broadcasts/top-up";
import { defineCommand } from "./command";
import { requireCustomer } from "./require-customer";
import { CreditAddArgs } from "./schemas";

export const creditAdd = defineCommand({
  options: { customer: { type: "string" }, amount: { type: "string" }, note: { type: "string" } },
  schema: CreditAddArgs,
  run: async (input) => {
    const customer = await requireCustomer(input.customer);
    const credit = await topUp({ customerId: customer.id, amount: input.amount, note: input.note });
    const resumed = credit.resumedBroadcasts;
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
      text: `Credited ${formatMoney(credit.amount, credit.currency)} to ${customer.name} (${credit.customerId}; ${credit.description}); balance ${formatMoney(credit.balance, credit.currency)}: ${credit.transactionId}${resumedText}`,
    };
  },
});

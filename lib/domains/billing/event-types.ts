// The events about the account's money (docs/api/billing.md "Low balance"; emitted by ./low-balance.ts).
import { z } from "zod";
import { defineEvent, EventTime, EXAMPLE_AT } from "@/lib/domains/events/define";

export const BalanceLow = defineEvent({
  type: "billing.balance.low",
  description:
    "The account's balance fell below its low-balance threshold (once per crossing; again after it was back above).",
  schema: z.object({
    balance: z.number().describe("The balance when it was noticed below the threshold (may be negative)"),
    threshold: z.number().describe("The account's low-balance threshold"),
    currency: z.string(),
    alertedAt: EventTime,
  }),
  example: { balance: 4.2175, threshold: 5, currency: "USD", alertedAt: EXAMPLE_AT },
});

export const BILLING_EVENTS = [BalanceLow];

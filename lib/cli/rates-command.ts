// rates:set (docs/operator-cli.md).

import { formatMoney } from "@/lib/core/money";
import { setRate } from "@/lib/domains/billing/rate-card";
import { defineCommand } from "./command";
import { requireCustomer } from "./require-customer";
import { RatesSetArgs } from "./schemas";

export const ratesSet = defineCommand({
  options: {
    category: { type: "string" },
    rate: { type: "string" },
    customer: { type: "string" },
    currency: { type: "string" },
  },
  schema: RatesSetArgs,
  run: async (input) => {
    const customerId = input.customer ? (await requireCustomer(input.customer)).id : undefined;
    const row = await setRate({
      category: input.category,
      rate: Number(input.rate),
      customerId,
      currency: input.currency,
    });
    return {
      json: {
        rateCardId: row.id,
        scope: row.scope,
        customerId: row.customerId,
        pricingCategory: row.pricingCategory,
        rate: row.rate.toString(),
        currency: row.currency,
      },
      text: `Rate for ${row.pricingCategory} (${row.scope}): ${formatMoney(row.rate, row.currency, "exact")} a message`,
    };
  },
});

"use server";
import { defineAction } from "@/lib/dashboard/define-action";
import { setLowBalanceThreshold } from "@/lib/domains/billing/low-balance";
import { LowBalanceThresholdInput } from "@/lib/domains/billing/schemas";

/** The account's low-balance threshold (docs/api/billing.md "Low balance"); the layout's banner depends on it. */
export const setLowBalanceThresholdAction = defineAction({
  permission: "billing",
  schema: LowBalanceThresholdInput,
  run: async ({ principal, input }) => {
    await setLowBalanceThreshold(principal, input.threshold);
  },
  revalidate: { path: "/", type: "layout" },
});

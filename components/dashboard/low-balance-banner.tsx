// The banner every dashboard page shows while the account's balance is below its low-balance
// threshold (docs/api/billing.md "Low balance"). Members who see billing get the amounts and a
// link to the ledger; the others only learn that sending may stop.

import { link } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";
import { formatMoney } from "@/lib/core/money";
import type { LowBalanceState } from "@/lib/domains/billing/low-balance";

export function LowBalanceBanner({ state, showAmounts }: { state: LowBalanceState; showAmounts: boolean }) {
  if (!state.low) return null;
  const money = (n: number) => formatMoney(n, state.currency);
  return (
    <div
      role="status"
      data-testid="low-balance-banner"
      className="border-b border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="mx-auto max-w-7xl px-4 py-2 text-sm">
        {showAmounts ? (
          <>
            Low balance: {money(state.balance)}, below the alert threshold of {money(state.threshold ?? 0)}. Paid
            messages are refused once it cannot cover them.{" "}
            <IntentLink href="/billing/ledger" className={link}>
              See the ledger
            </IntentLink>
          </>
        ) : (
          "The account's balance is low: paid messages may soon be refused. Ask an owner or a billing member to add credit."
        )}
      </p>
    </div>
  );
}

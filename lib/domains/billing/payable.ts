// The one payable rule, shared by callback ingest and the demo seed.
// A payable message is a delivered or accepted billing record that counts toward the
// customer's billing (docs/api/billing.md). So a record is payable when the provider bills it
// (`billable`: pricing type `regular`, not free_*) AND its status is accepted, delivered
// or read (read implies delivered). Sent-only, pending and failed records are free.
// A record that became payable stays payable: its one ledger debit has been written.
export const PAYABLE_STATUSES: ReadonlySet<string> = new Set(["accepted", "delivered", "read"]);

export type BillingClass = "payable" | "free";

export function billingClassOf(billable: boolean, status: string, current: BillingClass = "free"): BillingClass {
  return current === "payable" || (billable && PAYABLE_STATUSES.has(status)) ? "payable" : "free";
}

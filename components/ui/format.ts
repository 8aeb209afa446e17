import { formatMoney } from "@/lib/core/money";

// Dates shown in UTC so a copied link and a screenshot say the same thing anywhere.
export function formatDateTime(iso: string | Date | null | undefined): string {
  if (!iso) return "—";
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A billing record's Rate cell: "Free" for a record in the free class (not charged, so
 * the provider's list rate it may carry is no price; lib/domains/billing/payable.ts), else the
 * price of the message, exact (lib/core/money.ts).
 */
export function formatRate(record: { rate: number; billingClass: string }, currency: string): string {
  return record.billingClass === "free" ? "Free" : formatMoney(record.rate, currency, "exact");
}

/** A duration in seconds said briefly: "45s", "12m", "3h 05m", "2d 4h"; "—" when there is none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

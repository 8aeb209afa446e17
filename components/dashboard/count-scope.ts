// How the dashboard names what a count covers, so Billing's and Analytics' figures can be
// read side by side: Billing counts billing records (every message the provider billed,
// also those sent outside Switchboard, e.g. imported history), Analytics counts messages
// sent through Switchboard. Both say which senders and which days.
// See docs/dashboard.md.

/** "all dates", "from 2026-10-25", "until 2026-11-23" or "2026-10-25 to 2026-11-23" (UTC days, inclusive). */
export function periodLabel(dateFrom?: string, dateTo?: string): string {
  if (dateFrom && dateTo) return dateFrom === dateTo ? `on ${dateFrom}` : `${dateFrom} to ${dateTo}`;
  if (dateFrom) return `from ${dateFrom}`;
  if (dateTo) return `until ${dateTo}`;
  return "all dates";
}

/** "sender +1555…" or "all senders". */
export const sendersLabel = (phoneNumber: string | undefined) =>
  phoneNumber ? `sender ${phoneNumber}` : "all senders";

/** The first day of the last `days` UTC days, today included (YYYY-MM-DD). */
export function lastDaysFrom(days: number, now: Date): string {
  return new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

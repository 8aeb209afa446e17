// What the broadcast pages say about a status or a pause (docs/broadcasts.md "States").
import { formatDateTime } from "@/components/ui/format";

/** Why a broadcast is paused, and what happens next; `resumesAt` for the messaging limit. */
export function pauseText(reason: string | null, resumesAt: string | null): string {
  switch (reason) {
    case null:
      return "Paused by a member of your team. Resume it to continue sending.";
    case "messaging_limit":
      return `Paused by the service: the business account reached its messaging limit (unique contacts per rolling 24 hours). It resumes by itself${resumesAt ? ` at ${formatDateTime(resumesAt)}` : " when the oldest counted contact leaves the 24 hours"}.`;
    case "insufficient_balance":
      return "Paused by the service: the balance no longer covers the next message. Add credit, then resume it.";
    case "template_not_approved":
      return "Paused by the service: the template is no longer approved (paused or disabled by the provider). Resume it once the template is approved again.";
    case "sender_disconnected":
      return "Paused by the service: the sender is disconnected. Reconnect it, then resume.";
    default:
      return `Paused by the service (${reason}).`;
  }
}

/** States in which recipients may still move (the page follows them live). */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(["SCHEDULED", "STARTING", "SENDING", "PAUSED"]);

/** A share as a whole percent ("—" when there is nothing to divide by). */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return "—";
  return `${Math.round((part / whole) * 100)}%`;
}

// How the inbox shows a conversation's SLA (docs/reports.md "SLA policies"): its soonest pending
// due time, amber when it is due within 15 minutes, red once a target was missed or a due
// time has passed (before the timer has recorded the breach). Pure: the inbox re-renders it
// as time passes, without a reload.
import type { z } from "zod";
import type { ConversationSlaPublic } from "./schemas";

type Sla = z.output<typeof ConversationSlaPublic>;
export type SlaState = { state: "ok" | "soon" | "breached"; dueAt: string | null };

/** Amber from this long before the due time. */
export const SOON_MS = 15 * 60_000;

export function slaState(sla: Sla, now: number): SlaState | null {
  if (!sla) return null;
  const dues = [sla.firstResponseDueAt, sla.nextResponseDueAt, sla.resolutionDueAt].filter(
    (d): d is string => d !== null,
  );
  const dueAt = dues.reduce<string | null>((a, b) => (a === null || Date.parse(b) < Date.parse(a) ? b : a), null);
  if (sla.breaches.length > 0 || (dueAt !== null && Date.parse(dueAt) <= now)) return { state: "breached", dueAt };
  if (dueAt === null) return null;
  return { state: Date.parse(dueAt) - now <= SOON_MS ? "soon" : "ok", dueAt };
}

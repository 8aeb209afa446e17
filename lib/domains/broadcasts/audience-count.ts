// Counting an audience without making recipients (docs/broadcasts.md "Audience"): the tally by
// verdict, the estimate and a few rendered samples, all read from audienceQuery, the same
// statement that makes the recipients when a broadcast starts, so a preview or the new-broadcast
// page's live count says exactly what the start will make.
import type { Tx } from "@/lib/db";
import type { Broadcast, Sender, Template } from "@/lib/generated/prisma/client";
import { type AudienceInput, audienceQuery } from "./audience";
import { costOf } from "./cost";
import type { EstimatePublic } from "./schemas";
import { senderLimits } from "./sender-limits";

/** Unique numbers by verdict, and the rows dropped as another row of a number already counted. */
export type Tally = {
  queued: number;
  blacklisted: number;
  invalid_number: number;
  missing_variable: number;
  duplicates: number;
};

export async function tally(tx: Tx, input: AudienceInput): Promise<Tally> {
  const q = audienceQuery(input);
  const rows = await tx.$queryRawUnsafe<{ reason: string | null; n: number; duplicates: number }[]>(
    `SELECT "skipReason" AS reason, count(*)::int AS n, coalesce(sum(duplicates), 0)::int AS duplicates
       FROM (${q.text}) a GROUP BY 1`,
    ...q.values,
  );
  const t: Tally = { queued: 0, blacklisted: 0, invalid_number: 0, missing_variable: 0, duplicates: 0 };
  for (const r of rows) {
    t.duplicates += r.duplicates;
    if (r.reason === null) t.queued += r.n;
    else if (r.reason === "blacklisted" || r.reason === "invalid_number" || r.reason === "missing_variable") {
      t[r.reason] += r.n;
    }
  }
  return t;
}

/**
 * How many recipients (sent to or skipped) the audience makes: a segment's count
 * (docs/automation.md "Segments"), read from the statement a start inserts from.
 */
export async function audienceSize(tx: Tx, input: AudienceInput): Promise<number> {
  const q = audienceQuery(input);
  const [row] = await tx.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM (${q.text}) a`, ...q.values);
  return row?.n ?? 0;
}

/** recipients x the customer's rate of the template's category; the duration at the pace. */
export async function estimateOf(
  tx: Tx,
  b: Pick<Broadcast, "customerId" | "maxPerSecond">,
  sender: Sender,
  template: Template,
  t: Tally,
): Promise<EstimatePublic> {
  const { cost, currency } = await costOf(tx, b.customerId, template.category, t.queued);
  const limits = senderLimits(sender);
  const pace = Math.max(1, Math.min(b.maxPerSecond ?? Number.POSITIVE_INFINITY, limits.throughputPerSecond));
  return {
    recipients: t.queued,
    skipped: t.blacklisted + t.invalid_number + t.missing_variable,
    cost,
    currency,
    durationSeconds: Math.ceil(t.queued / pace),
  };
}

export type AudienceSample = { phone: string; parameters: { body: string[]; header: string[] } };

/** The first `limit` recipients that would be sent to (by number), with their resolved parameters. */
export function audienceSamples(tx: Tx, input: AudienceInput, limit: number): Promise<AudienceSample[]> {
  const q = audienceQuery(input);
  return tx.$queryRawUnsafe<AudienceSample[]>(
    `SELECT phone, parameters FROM (${q.text}) a WHERE status = 'queued' ORDER BY phone LIMIT ${Math.trunc(limit)}`,
    ...q.values,
  );
}

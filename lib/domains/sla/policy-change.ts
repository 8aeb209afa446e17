// A policy change reaches the open conversations (docs/reports.md "When a policy changes"):
// an edit, a new policy, a deleted one, and a change of the account's business hours (an edit
// of the terms of every policy that counts business hours). The API request writes the change
// and one durable job (the scheduler's ScheduledJob, in its transaction: the change and the job
// commit together or not at all); the SLA worker then walks the account's open conversations
// (for a new or a deleted policy, those holding no policy) in batches of POLICY_CHANGE_BATCH
// (200), each batch in its own transaction under the rows' locks, so the request does a bounded
// amount of work whatever the number of conversations. For each conversation of a batch it
//   1. records the breaches the terms in force before the change already held at the change
//      (a due time that fell before it while a worker was behind): a looser edit never lets a
//      breach of the old terms go unrecorded, and recorded breaches are never removed;
//   2. chooses the policy again (a change of `applies` or `position`, a new or deleted policy)
//      or keeps it (a change of the targets or businessHoursOnly) and writes the new due times and the timer;
//   3. deletes the conversation's other pending SLA timers, keyed by due times that no longer
//      apply (a timer that runs anyway judges by the current terms: lib/domains/sla/timers.ts).
// Step 1 is also done at once, in the edit's transaction, for the conversations whose SLA timer
// was due and had not run (recordMissedOfDue): that timer may run before the walk arrives.
// Replies and closes before the change are not judged again by the new terms (missedTargets'
// `judgedFrom`): a stricter edit never turns a reply that was in time into a breach.
import { z } from "zod";
import { db, type Tx } from "@/lib/db";
import { NOW_UTC, newId } from "@/lib/db/sql";
import type { BusinessHours } from "@/lib/domains/business-hours/hours";
import { businessHoursOf, parseBusinessHours } from "@/lib/domains/business-hours/service";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { type ClaimedJob, type JobOutcome, scheduleJobs } from "@/lib/domains/schedule/jobs";
import type { SlaPolicy } from "@/lib/generated/prisma/client";
import {
  type ConversationState,
  evaluate,
  later,
  missedTargets,
  pendingDues,
  periodOf,
  recordMisses,
  SLA_JOB_KIND,
  statesOf,
  store,
} from "./timers";

export const SLA_POLICY_JOB_KIND = "sla.policy_changed";

/** Conversations per transaction: their rows stay locked for one batch only. */
const POLICY_CHANGE_BATCH = 200;

const Terms = z.object({
  firstResponseMinutes: z.number().int().nullable(),
  nextResponseMinutes: z.number().int().nullable(),
  resolutionMinutes: z.number().int().nullable(),
  businessHoursOnly: z.boolean(),
  termsChangedAt: z.string().nullable(),
});
const ChangePayload = z.object({
  policyId: z.string(),
  /** Choose every open conversation's policy again (applies or position changed). */
  choose: z.boolean(),
  /**
   * With `choose`: only the open conversations holding no policy (a new policy goes last, so it
   * can take only those; a deleted policy's conversations hold none once it is gone).
   */
  unheld: z.boolean().optional(),
  /** When the change was made. */
  at: z.string(),
  /** The policy's terms before the change; null: a new policy (no conversation held it). */
  before: Terms.nullable(),
  /**
   * A change of the account's business hours: the hours before it (null: none), which the
   * terms before the change counted with. Absent for a change of a policy.
   */
  hoursBefore: z.object({ hours: z.unknown() }).optional(),
  /** The last conversation done, in the walk's order (lastMessageAt, id); null: none yet. */
  cursor: z.object({ at: z.string(), id: z.string() }).nullable(),
});
type ChangePayload = z.infer<typeof ChangePayload>;

type PolicyTerms = Pick<
  SlaPolicy,
  "firstResponseMinutes" | "nextResponseMinutes" | "resolutionMinutes" | "businessHoursOnly" | "termsChangedAt"
>;
export type PolicyChange = {
  customerId: string;
  policyId: string;
  /** The policy as it was (null: it is new). */
  before: PolicyTerms | null;
  /** Choose every open conversation's policy again (applies, position, a new or deleted policy). */
  choose: boolean;
  /** With `choose`: only the open conversations holding no policy (a new or deleted policy). */
  unheld?: boolean;
  at: Date;
  /** For a change of the business hours: the hours before it (null: none). */
  hoursBefore?: BusinessHours | null;
};

/** Writes the job that carries a change to the open conversations, in the change's transaction. */
export async function schedulePolicyChange(tx: Tx, change: PolicyChange): Promise<void> {
  const { before } = change;
  const payload: ChangePayload = {
    policyId: change.policyId,
    choose: change.choose,
    ...(change.unheld ? { unheld: true } : {}),
    at: change.at.toISOString(),
    before: before
      ? {
          firstResponseMinutes: before.firstResponseMinutes,
          nextResponseMinutes: before.nextResponseMinutes,
          resolutionMinutes: before.resolutionMinutes,
          businessHoursOnly: before.businessHoursOnly,
          termsChangedAt: before.termsChangedAt?.toISOString() ?? null,
        }
      : null,
    ...(change.hoursBefore !== undefined ? { hoursBefore: { hours: change.hoursBefore } } : {}),
    cursor: null,
  };
  await scheduleJobs(tx, [
    {
      customerId: change.customerId,
      kind: SLA_POLICY_JOB_KIND,
      key: `sla-policy:${change.policyId}:${newId("chg_")}`,
      subjectId: change.policyId,
      dueAt: change.at,
      payload,
    },
  ]);
  await recordMissedOfDue(tx, change.customerId, payload);
}

/**
 * Whether the account has an open conversation holding no policy: a new policy can take only
 * those (it goes last), so without one its walk would do nothing and none is written. A
 * conversation created meanwhile waits for this transaction (its insert's key check on the
 * account's row, locked by the policy change) and then chooses with the new policy; one reopened
 * in the instant between this read and the commit gets it at its next message or labels change.
 */
export async function hasUnheldOpen(tx: Tx, customerId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Conversation"
    WHERE "customerId" = ${customerId} AND "status" = 'OPEN' AND "slaPolicyId" IS NULL LIMIT 1`;
  return rows.length > 0;
}

/**
 * A change of the account's business hours (in its transaction, the account's row locked):
 * for each policy that counts business hours, an edit of its terms. Its `termsChangedAt` moves
 * to `at` (replies and closes before it keep the judgement of the hours then), the old hours'
 * misses are recorded as an edit's are, and the walk moves its conversations' due times. No
 * policy counts business hours: nothing to do.
 */
export async function scheduleHoursChange(
  tx: Tx,
  customerId: string,
  hoursBefore: BusinessHours | null,
  at: Date,
): Promise<number> {
  const policies = await tx.slaPolicy.findMany({ where: { customerId, businessHoursOnly: true } });
  for (const policy of policies) {
    await schedulePolicyChange(tx, { customerId, policyId: policy.id, before: policy, choose: false, at, hoursBefore });
  }
  if (policies.length > 0) {
    // Raw, so the policy's updatedAt (its API object's) stays: the policy itself did not change.
    await tx.$executeRaw`UPDATE "SlaPolicy" SET "termsChangedAt" = ${at.toISOString()}::timestamp(3)
      WHERE "customerId" = ${customerId} AND "id" = ANY(${policies.map((x) => x.id)}::text[])`;
  }
  return policies.length;
}

/**
 * Step 1 above: the misses of the terms each conversation held before the change, as they
 * stood at the change (`change.at`). A conversation that got its policy after the change
 * already has the new terms and is skipped.
 */
async function recordMissedBeforeChange(
  tx: Tx,
  customerId: string,
  states: ConversationState[],
  change: ChangePayload,
): Promise<number> {
  const at = new Date(change.at);
  const held = states.filter((s) => s.slaPolicyId !== null && !(s.slaSince && s.slaSince > at));
  if (held.length === 0) return 0;
  const ids = [...new Set(held.map((s) => s.slaPolicyId).filter((id): id is string => id !== null))];
  const policies = await tx.slaPolicy.findMany({ where: { customerId, id: { in: ids } } });
  const termsOf = (policyId: string) => {
    if (policyId === change.policyId) {
      const b = change.before;
      return b ? { ...b, termsChangedAt: b.termsChangedAt ? new Date(b.termsChangedAt) : null } : null;
    }
    const other = policies.find((x) => x.id === policyId);
    // Another policy changed after this change: its own job judges its old terms.
    return other && !(other.termsChangedAt && other.termsChangedAt > at) ? other : null;
  };
  let hours: BusinessHours | null = null;
  if (change.hoursBefore) hours = parseBusinessHours(change.hoursBefore.hours);
  else if (change.before?.businessHoursOnly || policies.some((x) => x.businessHoursOnly)) {
    hours = await businessHoursOf(customerId, tx);
  }
  const periodIds = held.flatMap((s) => (s.periodId ? [s.periodId] : []));
  const responses = await tx.supportResponse.findMany({
    where: { periodId: { in: periodIds } },
    select: { periodId: true, first: true, waitedFrom: true, respondedAt: true },
  });
  let emitted = 0;
  for (const state of held) {
    const period = periodOf(state);
    const terms = state.slaPolicyId ? termsOf(state.slaPolicyId) : null;
    if (!period || !terms || !state.slaPolicyId) continue;
    const own = responses.filter((r) => r.periodId === period.id);
    const misses = missedTargets(
      terms,
      period,
      own,
      pendingDues(terms, period, hours),
      hours,
      at,
      later(state.slaSince, terms.termsChangedAt),
    ).filter((m) => m.dueAt <= at);
    emitted += await recordMisses(tx, state, state.slaPolicyId, misses);
  }
  return emitted;
}

/**
 * Step 1, at once, for the conversations whose SLA timer came due before the change and has not
 * run yet (a worker behind), open or closed since: such a timer runs after the change and
 * judges by the new terms from the change on, so a reply or a close late under the old terms
 * would go unjudged, and the walk may come after the timer or never (a closed conversation).
 * In the edit's transaction, read from the due timers (the scheduler's status, kind, dueAt
 * index): it costs what the account's backlog of due timers is, nothing when the workers keep
 * up. Rows locked in id order, as the inbound path locks them.
 */
async function recordMissedOfDue(tx: Tx, customerId: string, change: ChangePayload): Promise<number> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT c."id" FROM "Conversation" c
    WHERE c."id" IN (SELECT j."subjectId" FROM "ScheduledJob" j
        WHERE j."status" = 'PENDING' AND j."kind" = ${SLA_JOB_KIND} AND j."dueAt" <= ${change.at}::timestamp(3)
          AND j."customerId" = ${customerId})
      AND c."customerId" = ${customerId}
      AND ((${change.choose}::boolean AND NOT ${change.unheld ?? false}::boolean) OR c."slaPolicyId" = ${change.policyId})
    ORDER BY c."id" FOR UPDATE`;
  if (rows.length === 0) return 0;
  const states = await statesOf(
    tx,
    rows.map((r) => r.id),
  );
  return recordMissedBeforeChange(tx, customerId, states, change);
}

/** The SLA worker's handler of a policy change: one batch of the account's open conversations per claim. */
export async function handlePolicyChangeJob(job: ClaimedJob, batch = POLICY_CHANGE_BATCH): Promise<JobOutcome> {
  const parsed = ChangePayload.safeParse(job.payload);
  if (!parsed.success) return { status: "FAILED", error: "malformed policy change" };
  const change = parsed.data;
  const { emitted, last, full } = await db.$transaction(async (tx) => {
    const from = change.cursor ?? { at: new Date(0).toISOString(), id: "" };
    // Keyset over the (customerId, status, lastMessageAt, id) index: each batch reads only its
    // own rows. The page is read without a lock and the cursor taken from that read: rows
    // locked in this order come back with the lastMessageAt an inbound gave them while we
    // waited, and the cursor would jump past the rows between. A conversation whose
    // lastMessageAt moves on is met again later (harmless: the same due times), and its
    // inbound chose its policy by the committed change anyway.
    const rows = await tx.$queryRaw<{ id: string; lastMessageAt: Date }[]>`
      SELECT "id", "lastMessageAt" FROM "Conversation"
      WHERE "customerId" = ${job.customerId} AND "status" = 'OPEN'
        AND ((${change.choose}::boolean AND (NOT ${change.unheld ?? false}::boolean OR "slaPolicyId" IS NULL))
          OR "slaPolicyId" = ${change.policyId})
        AND ("lastMessageAt", "id") > (${from.at}::timestamp(3), ${from.id}::text)
      ORDER BY "lastMessageAt", "id" LIMIT ${batch}`;
    if (rows.length === 0) return { emitted: 0, last: null, full: false };
    // Then locked in id order, the order the inbound path locks conversations in
    // (lib/domains/conversations/inbound.ts), so the two cannot deadlock; one closed meanwhile
    // has nothing due and is left out.
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Conversation"
      WHERE "customerId" = ${job.customerId} AND "id" = ANY(${rows.map((r) => r.id)}::text[]) AND "status" = 'OPEN'
      ORDER BY "id" FOR UPDATE`;
    const ids = locked.map((r) => r.id);
    const states = await statesOf(tx, ids);
    const emitted = await recordMissedBeforeChange(tx, job.customerId, states, change);
    const keys = await store(tx, await evaluate(tx, states, change.choose), new Date());
    // The superseded timers are deleted, not cancelled: a timer's key is its due time
    // (timers.ts), and an edit undone later (30, 60, then 30 minutes again) must be able to
    // schedule that due time again, which a cancelled row of the same key would refuse.
    await tx.$executeRawUnsafe(
      `DELETE FROM "ScheduledJob"
       WHERE "subjectId" = ANY($1::text[]) AND "kind" = $2 AND "status" = 'PENDING'
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) AND NOT ("key" = ANY($3::text[]))
         AND "customerId" = $4`,
      ids,
      SLA_JOB_KIND,
      keys,
      job.customerId,
    );
    const end = rows[rows.length - 1];
    return {
      emitted,
      last: end ? { at: end.lastMessageAt.toISOString(), id: end.id } : null,
      full: rows.length === batch,
    };
  });
  if (emitted > 0) deliveriesQueued();
  if (!full || !last) return { status: "DONE" };
  // Due again at once for the next batch, from where this one ended.
  return { status: "PENDING", dueAt: new Date(), payload: { ...change, cursor: last } };
}

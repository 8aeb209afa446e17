// SLA due times and breaches (docs/reports.md "SLA policies"). A conversation gets the first of
// its account's policies that applies (sender and labels) at each inbound and labels change;
// its open period's pending due times are kept on the conversation (the API object, the
// inbox's colours and its "due soonest" order read them) and a durable timer (the scheduler's
// ScheduledJob, lib/domains/schedule/jobs.ts) is written for the soonest: no polling of all
// conversations. When the timer is due, the conversation is checked under its row lock: each
// missed target is a SlaBreach row whose key is unique (period, target, and for a next
// response the wait's start), and conversation.sla_breached is emitted only by the insert that
// wrote it, in the same transaction: once, whatever replays, restarts or second workers do.
// A target met late (a reply after its due time, before the timer ran) is a breach too.
import { db, type Tx } from "@/lib/db";
import { NOW_UTC, newId } from "@/lib/db/sql";
import { addBusinessSeconds, type BusinessHours } from "@/lib/domains/business-hours/hours";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { type EventSender, emitEvents } from "@/lib/domains/events/emit";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import { publishLive } from "@/lib/domains/live/publish";
import { type ClaimedJob, type JobOutcome, scheduleJobs } from "@/lib/domains/schedule/jobs";
import type { SlaPolicy } from "@/lib/generated/prisma/client";
import { ConversationSlaBreached } from "./event-types";
import type { SlaTarget } from "./schemas";

export const SLA_JOB_KIND = "sla.check";

type Targets = Pick<
  SlaPolicy,
  "firstResponseMinutes" | "nextResponseMinutes" | "resolutionMinutes" | "businessHoursOnly"
>;
/** The conversation's latest support period (lib/domains/support/periods.ts). */
export type PeriodState = {
  id: string;
  startedAt: Date;
  waitingSince: Date | null;
  firstResponseAt: Date | null;
  resolvedAt: Date | null;
};
export type Dues = { firstResponse: Date | null; nextResponse: Date | null; resolution: Date | null };
const NO_DUES: Dues = { firstResponse: null, nextResponse: null, resolution: null };

/** `minutes` after `from`, counting only business hours when the policy says so and the account set them. */
export function dueAfter(from: Date, minutes: number, policy: Targets, hours: BusinessHours | null): Date | null {
  if (policy.businessHoursOnly && hours) return addBusinessSeconds(from, minutes * 60, hours);
  return new Date(from.getTime() + minutes * 60_000);
}

/** The open period's pending due times: a first response while nobody replied, a next one while a later inbound waits, the close. */
export function pendingDues(policy: Targets, period: PeriodState | null, hours: BusinessHours | null): Dues {
  if (!period || period.resolvedAt) return NO_DUES;
  const wait = period.waitingSince;
  const after = (from: Date | null, minutes: number | null) =>
    from && minutes !== null ? dueAfter(from, minutes, policy, hours) : null;
  return {
    firstResponse: period.firstResponseAt === null ? after(wait, policy.firstResponseMinutes) : null,
    nextResponse: period.firstResponseAt !== null ? after(wait, policy.nextResponseMinutes) : null,
    resolution: after(period.startedAt, policy.resolutionMinutes),
  };
}

/** Whether a policy applies: one of its senders (none: any) and one of its labels (none: any), labels whatever the case. */
export function policyApplies(
  policy: Pick<SlaPolicy, "senderIds" | "labels">,
  c: { senderId: string; labelKeys: readonly string[] },
): boolean {
  if (policy.senderIds.length > 0 && !policy.senderIds.includes(c.senderId)) return false;
  return policy.labels.length === 0 || policy.labels.some((l) => c.labelKeys.includes(l.toLowerCase()));
}

const soonest = (d: Dues): Date | null =>
  [d.firstResponse, d.nextResponse, d.resolution]
    .filter((x): x is Date => x !== null)
    .reduce<Date | null>((a, b) => (a === null || b < a ? b : a), null);

export type ConversationState = {
  id: string;
  customerId: string;
  senderId: string;
  slaPolicyId: string | null;
  slaSince: Date | null;
  labelKeys: string[];
  periodId: string | null;
  startedAt: Date | null;
  waitingSince: Date | null;
  firstResponseAt: Date | null;
  resolvedAt: Date | null;
};

export const periodOf = (c: ConversationState): PeriodState | null =>
  c.periodId && c.startedAt
    ? {
        id: c.periodId,
        startedAt: c.startedAt,
        waitingSince: c.waitingSince,
        firstResponseAt: c.firstResponseAt,
        resolvedAt: c.resolvedAt,
      }
    : null;

export async function statesOf(tx: Tx, ids: readonly string[]): Promise<ConversationState[]> {
  return tx.$queryRaw<ConversationState[]>`
    SELECT c."id", c."customerId", c."senderId", c."slaPolicyId", c."slaSince",
      ARRAY(SELECT l."nameKey" FROM "ConversationLabel" cl JOIN "Label" l ON l."id" = cl."labelId"
        WHERE cl."conversationId" = c."id") AS "labelKeys",
      p."id" AS "periodId", p."startedAt", p."waitingSince", p."firstResponseAt", p."resolvedAt"
    FROM "Conversation" c
    LEFT JOIN LATERAL (SELECT * FROM "SupportPeriod" q WHERE q."conversationId" = c."id"
      ORDER BY q."startedAt" DESC LIMIT 1) p ON true
    WHERE c."id" = ANY(${[...ids]}::text[])`;
}

export type Evaluated = { state: ConversationState; policy: SlaPolicy | null; dues: Dues; hours: BusinessHours | null };

/** Each conversation's policy (chosen again when `choose`, else the one it has) and pending due times. */
export async function evaluate(tx: Tx, states: ConversationState[], choose: boolean): Promise<Evaluated[]> {
  const customers = [...new Set(states.map((s) => s.customerId))];
  const policies = await tx.slaPolicy.findMany({
    where: { customerId: { in: customers } },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }],
  });
  const hoursOf = new Map<string, BusinessHours | null>();
  for (const customerId of customers) {
    if (policies.some((x) => x.customerId === customerId && x.businessHoursOnly)) {
      hoursOf.set(customerId, await businessHoursOf(customerId, tx));
    }
  }
  return states.map((state) => {
    const own = policies.filter((x) => x.customerId === state.customerId);
    const policy =
      (choose ? own.find((x) => policyApplies(x, state)) : own.find((x) => x.id === state.slaPolicyId)) ?? null;
    const hours = hoursOf.get(state.customerId) ?? null;
    return { state, policy, hours, dues: policy ? pendingDues(policy, periodOf(state), hours) : NO_DUES };
  });
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * Writes the policy and due times, a timer for the soonest due time still ahead and one now for
 * each already past; returns the timers' keys. A policy chosen anew applies from `now`
 * (`slaSince`): replies and closes before it are not judged by it (missedTargets).
 */
export async function store(tx: Tx, evaluated: Evaluated[], now: Date): Promise<string[]> {
  if (evaluated.length === 0) return [];
  await tx.$executeRawUnsafe(
    `UPDATE "Conversation" AS c SET "slaPolicyId" = s.policy,
       "slaSince" = CASE WHEN c."slaPolicyId" IS NOT DISTINCT FROM s.policy THEN c."slaSince"
         WHEN s.policy IS NULL THEN NULL ELSE $7::timestamp(3) END,
       "slaFirstResponseDueAt" = s.first::timestamp(3),
       "slaNextResponseDueAt" = s.next::timestamp(3), "slaResolutionDueAt" = s.res::timestamp(3),
       "slaDueAt" = s.due::timestamp(3)
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS s(id, policy, first, next, res, due)
     WHERE c."id" = s.id AND (c."slaPolicyId", c."slaFirstResponseDueAt", c."slaNextResponseDueAt", c."slaResolutionDueAt", c."slaDueAt")
       IS DISTINCT FROM (s.policy, s.first::timestamp(3), s.next::timestamp(3), s.res::timestamp(3), s.due::timestamp(3))`,
    evaluated.map((e) => e.state.id),
    evaluated.map((e) => e.policy?.id ?? null),
    evaluated.map((e) => iso(e.dues.firstResponse)),
    evaluated.map((e) => iso(e.dues.nextResponse)),
    evaluated.map((e) => iso(e.dues.resolution)),
    evaluated.map((e) => iso(soonest(e.dues))),
    now.toISOString(),
  );
  const ahead = (d: Date | null) => (d && d > now ? [d] : []);
  // A due time already past when it is computed (a policy that starts to apply to a contact
  // waiting longer than its target: a label added late, a new policy) is checked at once,
  // once: its timer's key is the due time's, so computing it again schedules nothing.
  const passed = (dues: Evaluated["dues"]) =>
    [dues.firstResponse, dues.nextResponse, dues.resolution].filter((d): d is Date => d !== null && d <= now);
  const timer = (e: Evaluated, due: Date, at: Date) => ({
    customerId: e.state.customerId,
    kind: SLA_JOB_KIND,
    // One timer per conversation and due time: the same due time scheduled again writes nothing.
    key: `sla:${e.state.id}:${due.getTime()}`,
    subjectId: e.state.id,
    dueAt: at,
    payload: {},
  });
  const timers = evaluated.flatMap((e) => {
    const next = soonest({
      firstResponse: ahead(e.dues.firstResponse)[0] ?? null,
      nextResponse: ahead(e.dues.nextResponse)[0] ?? null,
      resolution: ahead(e.dues.resolution)[0] ?? null,
    });
    const late = [...new Map(passed(e.dues).map((d) => [d.getTime(), d])).values()];
    return [...late.map((d) => timer(e, d, now)), ...(next ? [timer(e, next, next)] : [])];
  });
  await scheduleJobs(tx, timers);
  return timers.map((t) => t.key);
}

/**
 * The conversations' SLA after a change to them (in its transaction): an inbound or a labels
 * change chooses the policy again (`choose`); a hand-off or a close keeps it and recomputes
 * the due times. Accounts without policies cost one indexed read.
 */
export async function refreshSla(tx: Tx, conversationIds: readonly string[], choose: boolean): Promise<void> {
  if (conversationIds.length === 0) return;
  const states = await statesOf(tx, conversationIds);
  const customers = [...new Set(states.map((s) => s.customerId))];
  // Raw: a label change by an automation rule runs in a plain transaction (lib/db/plain-tx.ts).
  const [any] = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM "SlaPolicy" WHERE "customerId" = ANY(${customers}::text[]) LIMIT 1`;
  const withPolicy = states.filter((s) => s.slaPolicyId !== null);
  if (!any && withPolicy.length === 0) return;
  await store(tx, await evaluate(tx, any ? states : withPolicy, choose), new Date());
}

/**
 * A deleted policy's conversations lose their SLA (their breaches stay recorded) and their
 * pending SLA timers, which are deleted rather than left to run for nothing; the walk the
 * delete starts gives the open ones the next policy that applies. Rows locked in id order, as
 * the inbound path locks them. A timer claimed at that moment runs and finds no policy.
 */
export async function dropPolicy(tx: Tx, customerId: string, policyId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Conversation" WHERE "customerId" = ${customerId} AND "slaPolicyId" = ${policyId}
    ORDER BY "id" FOR UPDATE`;
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  await tx.$executeRaw`UPDATE "Conversation" SET "slaPolicyId" = NULL, "slaSince" = NULL, "slaFirstResponseDueAt" = NULL,
      "slaNextResponseDueAt" = NULL, "slaResolutionDueAt" = NULL, "slaDueAt" = NULL
    WHERE "customerId" = ${customerId} AND "id" = ANY(${ids}::text[])`;
  await tx.$executeRawUnsafe(
    `DELETE FROM "ScheduledJob"
     WHERE "subjectId" = ANY($1::text[]) AND "kind" = $2 AND "status" = 'PENDING'
       AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) AND "customerId" = $3`,
    ids,
    SLA_JOB_KIND,
    customerId,
  );
}

export type Miss = { target: SlaTarget; key: string; dueAt: Date };
type ResponseFacts = { first: boolean; waitedFrom: Date; respondedAt: Date };

/**
 * A period's missed targets at `now`, from its responses: pending ones past due (`dues`, the
 * open period's), and ones met after their due time. Keys as SlaBreach's: the period and
 * target, and for a next response the wait's start (the demo's history records its breaches
 * with it too). A reply or a close before `judgedFrom` (when these terms began to apply to the
 * conversation) is not judged: the terms in force then judged it (docs/reports.md "When a
 * policy changes"); a wait still open is judged by these terms from its start.
 */
export function missedTargets(
  policy: Targets,
  period: PeriodState,
  responses: readonly ResponseFacts[],
  dues: Dues,
  hours: BusinessHours | null,
  now: Date,
  judgedFrom: Date | null = null,
): Miss[] {
  const misses: Miss[] = [];
  const miss = (target: SlaTarget, dueAt: Date | null, metAt: Date | null, wait?: Date) => {
    if (dueAt && (metAt ? metAt > dueAt : now >= dueAt)) {
      misses.push({ target, dueAt, key: `${period.id}:${target}${wait ? `:${wait.getTime()}` : ""}` });
    }
  };
  const before = (at: Date | null) => at !== null && judgedFrom !== null && at < judgedFrom;
  for (const r of responses) {
    if (before(r.respondedAt)) continue;
    const minutes = r.first ? policy.firstResponseMinutes : policy.nextResponseMinutes;
    if (minutes === null) continue;
    const due = dueAfter(r.waitedFrom, minutes, policy, hours);
    if (r.first) miss("first_response", due, r.respondedAt);
    else miss("next_response", due, r.respondedAt, r.waitedFrom);
  }
  miss("first_response", dues.firstResponse, null);
  if (period.waitingSince) miss("next_response", dues.nextResponse, null, period.waitingSince);
  const resolutionDue =
    policy.resolutionMinutes === null ? null : dueAfter(period.startedAt, policy.resolutionMinutes, policy, hours);
  if (!before(period.resolvedAt)) miss("resolution", resolutionDue, period.resolvedAt);
  return misses;
}

/** The later of two moments (null: none). */
export const later = (a: Date | null, b: Date | null): Date | null => (a && b ? (a > b ? a : b) : (a ?? b));

/** The conversation's period's missed targets at `now` (its responses read in the job's transaction). */
async function missesOf(tx: Tx, e: Evaluated, now: Date): Promise<Miss[]> {
  const period = periodOf(e.state);
  const policy = e.policy;
  if (!period || !policy) return [];
  const responses = await tx.supportResponse.findMany({
    where: { periodId: period.id },
    select: { first: true, waitedFrom: true, respondedAt: true },
  });
  // The policy's terms apply to this conversation since it got the policy or they last changed.
  const judgedFrom = later(e.state.slaSince, policy.termsChangedAt);
  return missedTargets(policy, period, responses, e.dues, e.hours, now, judgedFrom);
}

/**
 * Records the conversation's misses as SlaBreach rows (a key already recorded writes nothing)
 * and emits conversation.sla_breached for each row written, in `tx`; returns the events emitted.
 */
export async function recordMisses(
  tx: Tx,
  state: ConversationState,
  policyId: string,
  misses: readonly Miss[],
): Promise<number> {
  if (misses.length === 0) return 0;
  const inserted = await tx.$queryRawUnsafe<{ target: SlaTarget; dueAt: Date; breachedAt: Date }[]>(
    `INSERT INTO "SlaBreach" ("id", "customerId", "senderId", "conversationId", "periodId", "policyId", "target", "key", "dueAt", "breachedAt")
     SELECT s.id, $1, $2, $3, $4, $5, s.target, s.key, s.due::timestamp(3), ${NOW_UTC}
     FROM unnest($6::text[], $7::text[], $8::text[], $9::text[]) AS s(id, target, key, due)
     ON CONFLICT ("key") DO NOTHING
     RETURNING "target", "dueAt", "breachedAt"`,
    state.customerId,
    state.senderId,
    state.id,
    state.periodId,
    policyId,
    misses.map(() => newId("slab_")),
    misses.map((m) => m.target),
    misses.map((m) => m.key),
    misses.map((m) => m.dueAt.toISOString()),
  );
  if (inserted.length === 0) return 0;
  const sender = await tx.sender.findUniqueOrThrow({
    where: { id: state.senderId },
    select: { id: true, customerId: true, phoneNumber: true, phoneNumberId: true },
  });
  const eventSender: EventSender = sender;
  const count = await emitEvents(
    tx,
    inserted.map((b) => {
      const key = misses.find((m) => m.target === b.target && m.dueAt.getTime() === b.dueAt.getTime())?.key;
      return ConversationSlaBreached.of({
        sender: eventSender,
        dedupeKey: `conversation.sla_breached:${key ?? `${state.periodId}:${b.target}:${b.dueAt.getTime()}`}`,
        createdAt: b.breachedAt,
        data: {
          conversationUid: state.id,
          target: b.target,
          dueAt: b.dueAt.toISOString(),
          breachedAt: b.breachedAt.toISOString(),
          policyUid: policyId,
        },
      });
    }),
  );
  await publishLive(tx, state.customerId, [
    { kind: "conversation.changed", senderId: state.senderId, conversationUid: state.id },
  ]);
  return count;
}

/** The scheduler's handler of an SLA timer: records the conversation's new breaches, once, and sets its next timer. */
export async function handleSlaJob(job: ClaimedJob): Promise<JobOutcome> {
  const conversationId = job.subjectId;
  if (!conversationId) return { status: "CANCELLED" };
  const emitted = await db.$transaction(async (tx) => {
    // Under the row lock, as the inbound and the close that change the period.
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Conversation" WHERE "id" = ${conversationId} AND "customerId" = ${job.customerId} FOR UPDATE`;
    if (locked.length === 0) return 0;
    const [state] = await statesOf(tx, [conversationId]);
    if (!state?.slaPolicyId) return 0;
    // Judged by the policy as it is now: a timer keyed by a due time a policy change moved
    // records only what the current terms miss (docs/reports.md "When a policy changes").
    const [e] = await evaluate(tx, [state], false);
    if (!e) return 0;
    const now = new Date();
    const count = e.policy ? await recordMisses(tx, state, e.policy.id, await missesOf(tx, e, now)) : 0;
    await store(tx, [e], now);
    return count;
  });
  if (emitted > 0) deliveriesQueued();
  return { status: "DONE" };
}

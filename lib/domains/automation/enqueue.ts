// How inbound messages reach the rules (docs/automation.md "Where rules run"), in two steps.
// 1. `stageInbound`, in the callback processor's transaction that applies the messages: the
//    batch's new messages of accounts with an enabled rule that watches their sender become one
//    inbound job per account, committed with the messages or not at all. The callback pays one
//    indexed read per batch (none when no account of it has a rule) and one row per account.
// 2. `scheduleInboundJobs`, when the automation worker runs that inbound job (runner.ts), in a
//    transaction of its own: each message becomes its event jobs (message.inbound,
//    conversation.created) and each of its time rules a timer (idle, unanswered), keyed by the
//    provider message id, so running a staged batch again (a crash before its outcome was
//    recorded) schedules nothing twice, and neither does a replayed callback (it stores nothing
//    new, so stages nothing).
// Step 2 used to run inside the callback's transaction: a job row per message and trigger, two
// timers and the cancelled older timers of each message cost the callbacks of an account with
// rules 20-60 ms at p99 at 200 messages/s (docs/benchmarks.md "The next limits").
import type { Tx } from "@/lib/db";
import { NOW_UTC, newId } from "@/lib/db/sql";
import { type NewJob, scheduleJobs } from "@/lib/domains/schedule/jobs";
import { JOB_KINDS } from "./actions";
import type { EventPayload, InboundPayload, StagedInbound, TimePayload } from "./payloads";
import type { TriggerEvent } from "./schemas";

export type InboundForRules = Omit<StagedInbound, "at"> & { at: Date };

type RuleHead = {
  id: string;
  customerId: string;
  triggerEvent: TriggerEvent;
  minutes: number | null;
  senderIds: string[];
};

const watches = (r: RuleHead, i: { customerId: string; senderId: string }) =>
  r.customerId === i.customerId && (r.senderIds.length === 0 || r.senderIds.includes(i.senderId));

/** The enabled rules of these messages' accounts (one indexed read). */
const rulesOf = (tx: Tx, items: readonly { customerId: string }[]) =>
  tx.$queryRawUnsafe<RuleHead[]>(
    `SELECT id, "customerId", "triggerEvent", ("trigger" ->> 'minutes')::int AS minutes, "senderIds"
     FROM "AutomationRule" WHERE "customerId" = ANY($1::text[]) AND enabled`,
    [...new Set(items.map((i) => i.customerId))],
  );

/**
 * Step 1, in the callback's transaction: the messages some enabled rule watches, one inbound
 * job per account (due now). Returns how many messages were staged.
 */
export async function stageInbound(tx: Tx, items: InboundForRules[]): Promise<number> {
  if (items.length === 0) return 0;
  const rules = await rulesOf(tx, items);
  if (rules.length === 0) return 0;
  const byAccount = new Map<string, StagedInbound[]>();
  for (const i of items) {
    if (!rules.some((r) => watches(r, i))) continue;
    const staged = byAccount.get(i.customerId) ?? [];
    staged.push({ ...i, text: i.text.slice(0, 4096), at: i.at.toISOString() });
    byAccount.set(i.customerId, staged);
  }
  const now = new Date();
  await scheduleJobs(
    tx,
    [...byAccount].map(([customerId, staged]) => ({
      customerId,
      kind: JOB_KINDS.inbound,
      key: `auto:inbound:${newId("b")}`,
      subjectId: null,
      dueAt: now,
      payload: { items: staged } satisfies InboundPayload,
    })),
  );
  return [...byAccount.values()].reduce((n, staged) => n + staged.length, 0);
}

/** Step 2, in the worker's transaction: a staged batch's event jobs and timers; returns how many are new. */
export async function scheduleInboundJobs(tx: Tx, staged: readonly StagedInbound[]): Promise<number> {
  const items: InboundForRules[] = staged.map((i) => ({ ...i, at: new Date(i.at) }));
  if (items.length === 0) return 0;
  const rules = await rulesOf(tx, items);
  if (rules.length === 0) return 0;
  const jobs: NewJob[] = [];
  const timed = new Set<string>();
  for (const i of items) {
    const mine = rules.filter((r) => watches(r, i));
    if (mine.length === 0) continue;
    const message = { text: i.text.slice(0, 4096), type: i.type };
    const event = (trigger: TriggerEvent, eventKey: string): NewJob => ({
      customerId: i.customerId,
      kind: JOB_KINDS.event,
      key: `auto:${trigger}:${eventKey}`,
      subjectId: i.conversationId,
      dueAt: i.at,
      payload: {
        trigger,
        conversationId: i.conversationId,
        eventKey,
        message: trigger === "message.inbound" ? message : null,
        at: i.at.toISOString(),
      } satisfies EventPayload,
    });
    if (mine.some((r) => r.triggerEvent === "message.inbound"))
      jobs.push(event("message.inbound", i.providerMessageId));
    if (i.created && mine.some((r) => r.triggerEvent === "conversation.created")) {
      jobs.push(event("conversation.created", i.conversationId));
    }
    for (const r of mine) {
      if ((r.triggerEvent !== "conversation.idle" && r.triggerEvent !== "conversation.unanswered") || !r.minutes)
        continue;
      timed.add(i.conversationId);
      jobs.push({
        customerId: i.customerId,
        kind: JOB_KINDS.time,
        key: `auto:${r.triggerEvent}:${r.id}:${i.providerMessageId}`,
        subjectId: i.conversationId,
        dueAt: new Date(i.at.getTime() + r.minutes * 60_000),
        payload: {
          trigger: r.triggerEvent,
          ruleId: r.id,
          conversationId: i.conversationId,
          anchorMessageId: i.providerMessageId,
          anchorAt: i.at.toISOString(),
          message,
        } satisfies TimePayload,
      });
    }
  }
  // A newer inbound replaces the conversation's waiting timers (the last inbound is what waits),
  // but never this batch's own (a replayed message finds its timer, not a cancelled one).
  // A replayed older message cancels nothing newer than itself.
  if (timed.size > 0) {
    const latest = new Map<string, Date>();
    for (const i of items) {
      const seen = latest.get(i.conversationId);
      if (timed.has(i.conversationId) && (!seen || seen < i.at)) latest.set(i.conversationId, i.at);
    }
    await tx.$executeRawUnsafe(
      `UPDATE "ScheduledJob" AS j SET status = 'CANCELLED', "updatedAt" = ${NOW_UTC}
       FROM unnest($1::text[], $2::text[]) AS t(subject, at)
       WHERE j."subjectId" = t.subject AND j.status = 'PENDING' AND j.kind = $3 AND NOT (j.key = ANY($4::text[]))
         AND (j.payload ->> 'anchorAt')::timestamptz < t.at::timestamptz`,
      [...latest.keys()],
      [...latest.values()].map((d) => d.toISOString()),
      JOB_KINDS.time,
      jobs.filter((j) => j.kind === JOB_KINDS.time).map((j) => j.key),
    );
  }
  return scheduleJobs(tx, jobs);
}

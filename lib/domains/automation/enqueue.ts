// How inbound messages reach the rules (docs/automation.md "Where rules run"), in two steps.
// 1. `stageInbound`, in the callback processor's transaction that applies the messages: the
//    batch's new messages of accounts with an enabled rule that watches their sender become one
//    inbound job per account, committed with the messages or not at all. The callback pays one
//    statement per batch: an indexed read of the rules, and one row per account that has one.
// 2. `scheduleInboundJobs`, when the automation worker runs that inbound job (runner.ts), in a
//    transaction of its own: each message becomes its event jobs (message.inbound,
//    conversation.created) and each of its time rules a timer (idle, unanswered), keyed by the
//    provider message id, so running a staged batch again (a crash before its outcome was
//    recorded) schedules nothing twice, and neither does a replayed callback (it stores nothing
//    new, so stages nothing).
// Step 2 used to run inside the callback's transaction: a job row per message and trigger, two
// timers and the cancelled older timers of each message cost the callbacks of an account with
// rules 20-60 ms at p99 at 200 messages/s (docs/benchmarks.md "The next limits").
import { storableText } from "@/lib/core/storable-text";
import type { Tx } from "@/lib/db";
import { NOW_UTC, newIds } from "@/lib/db/sql";
import { notifyExpression } from "@/lib/db/wakeups";
import { type NewJob, scheduleJobs, wakePayload } from "@/lib/domains/schedule/jobs";
import { JOB_KINDS } from "./actions";
import type { EventPayload, StagedInbound, TimePayload } from "./payloads";
import type { TriggerEvent } from "./schemas";

export type InboundForRules = Omit<StagedInbound, "at" | "seenAt"> & { at: Date; seenAt?: Date };

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
 * A message's text as the rules keep it: 4,096 UTF-16 units, and storable in jsonb (a cut through
 * an emoji leaves a lone surrogate, which jsonb refuses: the batch's transaction would fail).
 */
const textOf = (i: { text: string }) => storableText(i.text.slice(0, 4096));

const isTimed = (r: RuleHead) =>
  (r.triggerEvent === "conversation.idle" || r.triggerEvent === "conversation.unanswered") && !!r.minutes;

/**
 * Step 1, in the callback's transaction: the messages some enabled rule makes a job of (its
 * event's, its new conversation's, or a timer: the rule watches the message's sender), one
 * inbound job per account (due now), and the automation worker's wake-up. Returns how many
 * messages were staged. One statement, whether or not an account of the batch has a rule: the
 * callback's transaction runs its statements through the ORM, and the read of the rules, the
 * job's insert and its NOTIFY as three statements cost the callbacks of an account with 20 rules
 * about 6 ms at the median at 200 messages a second (docs/benchmarks.md "The next limits").
 */
export async function stageInbound(tx: Tx, items: InboundForRules[]): Promise<number> {
  if (items.length === 0) return 0;
  const accounts = [...new Set(items.map((i) => i.customerId))];
  const ids = newIds("job_", accounts.length);
  const rows = await tx.$queryRawUnsafe<{ staged: number }[]>(
    `WITH item AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::text[], $13::text[]) WITH ORDINALITY AS t(customer, sender, created, conversation, message, body, type, at,
         seen, n)),
     wanted AS (
       SELECT i.customer, jsonb_agg(jsonb_build_object('customerId', i.customer, 'senderId', i.sender,
           'conversationId', i.conversation, 'providerMessageId', i.message, 'text', i.body, 'type', i.type,
           'at', i.at, 'created', i.created)
           || CASE WHEN i.seen IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('seenAt', i.seen) END ORDER BY i.n) AS items
       FROM item i
       -- Some enabled rule wants the message: the test of wanted jobs that scheduleInboundJobs
       -- makes with watches and isTimed, here in SQL (keep the two alike).
       WHERE EXISTS (SELECT 1 FROM "AutomationRule" r
         WHERE r."customerId" = i.customer AND r.enabled
           AND (cardinality(r."senderIds") = 0 OR i.sender = ANY(r."senderIds"))
           AND (r."triggerEvent" = 'message.inbound'
             OR (i.created AND r."triggerEvent" = 'conversation.created')
             OR (r."triggerEvent" IN ('conversation.idle', 'conversation.unanswered')
               AND COALESCE((r."trigger" ->> 'minutes')::int, 0) <> 0)))
       GROUP BY i.customer),
     written AS (
       INSERT INTO "ScheduledJob" (id, "customerId", kind, key, "subjectId", "dueAt", payload, status, attempts, "createdAt", "updatedAt")
       SELECT a.id, w.customer, $11, 'auto:inbound:' || a.id, NULL, ${NOW_UTC}, jsonb_build_object('items', w.items),
         'PENDING', 0, ${NOW_UTC}, ${NOW_UTC}
       FROM wanted w JOIN unnest($9::text[], $10::text[]) AS a(customer, id) ON a.customer = w.customer
       ON CONFLICT (key) DO NOTHING
       RETURNING payload)
     SELECT COALESCE(sum(jsonb_array_length(payload -> 'items')), 0)::int AS staged,
       (SELECT count(${notifyExpression("jobs", "$12")}) WHERE EXISTS (SELECT 1 FROM written))::int AS woke
     FROM written`,
    items.map((i) => i.customerId),
    items.map((i) => i.senderId),
    items.map((i) => i.created),
    items.map((i) => i.conversationId),
    items.map((i) => i.providerMessageId),
    items.map((i) => textOf(i)),
    items.map((i) => i.type),
    items.map((i) => i.at.toISOString()),
    accounts,
    ids,
    JOB_KINDS.inbound,
    wakePayload([JOB_KINDS.inbound]),
    items.map((i) => i.seenAt?.toISOString() ?? null),
  );
  return rows[0]?.staged ?? 0;
}

/**
 * Step 2, in the worker's transaction: a staged batch's event jobs and timers; returns how many
 * are new. Only a conversation's latest message starts its time rules' timers, and none starts
 * them when a message as new or newer already did (this batch run twice, or a newer batch
 * written first: a retry, a second worker); older pending timers are cancelled.
 */
export async function scheduleInboundJobs(tx: Tx, staged: readonly StagedInbound[]): Promise<number> {
  const items: InboundForRules[] = staged.map((i) => ({
    ...i,
    at: new Date(i.at),
    seenAt: i.seenAt ? new Date(i.seenAt) : undefined,
  }));
  if (items.length === 0) return 0;
  const rules = await rulesOf(tx, items);
  if (rules.length === 0) return 0;
  const jobs: NewJob[] = [];
  const latest = new Map<string, InboundForRules>();
  for (const i of items) {
    const mine = rules.filter((r) => watches(r, i));
    if (mine.length === 0) continue;
    const seen = latest.get(i.conversationId);
    if (!seen || seen.at < i.at) latest.set(i.conversationId, i);
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
        message: trigger === "message.inbound" ? messageOf(i) : null,
        at: i.at.toISOString(),
      } satisfies EventPayload,
    });
    if (mine.some((r) => r.triggerEvent === "message.inbound"))
      jobs.push(event("message.inbound", i.providerMessageId));
    if (i.created && mine.some((r) => r.triggerEvent === "conversation.created")) {
      jobs.push(event("conversation.created", i.conversationId));
    }
  }
  const timedRules = rules.filter(isTimed);
  const waiting = [...latest.values()].filter((i) => timedRules.some((r) => watches(r, i)));
  if (waiting.length > 0) jobs.push(...(await timersOf(tx, waiting, timedRules)));
  return scheduleJobs(tx, jobs);
}

const messageOf = (i: InboundForRules) => ({ text: textOf(i), type: i.type });

/** The timers these latest messages start (one per conversation), the older pending ones cancelled. */
async function timersOf(tx: Tx, waiting: InboundForRules[], timedRules: RuleHead[]): Promise<NewJob[]> {
  const conversations = waiting.map((i) => i.conversationId).sort();
  // Writers of one conversation's timers take turns (in a stable order: no deadlock), so a
  // batch written after a newer one sees that one's timers.
  await tx.$queryRawUnsafe(
    `SELECT count(pg_advisory_xact_lock(k))::int AS n
     FROM (SELECT hashtext('automation-timers:' || c) AS k FROM unnest($1::text[]) AS c ORDER BY c) s`,
    conversations,
  );
  // Per conversation and rule, the newest message that has a timer, pending or already run.
  const anchors = await tx.$queryRawUnsafe<{ subject: string; ruleId: string; at: Date | string }[]>(
    `SELECT "subjectId" AS subject, payload ->> 'ruleId' AS "ruleId", max((payload ->> 'anchorAt')::timestamptz) AS at
     FROM "ScheduledJob" WHERE "subjectId" = ANY($1::text[]) AND kind = $2 AND status <> 'CANCELLED'
     GROUP BY 1, 2`,
    conversations,
    JOB_KINDS.time,
  );
  const newest = new Map(anchors.map((a) => [`${a.subject}|${a.ruleId}`, new Date(a.at).getTime()]));
  const timers: NewJob[] = [];
  for (const i of waiting) {
    for (const r of timedRules) {
      if (!watches(r, i)) continue;
      const known = newest.get(`${i.conversationId}|${r.id}`);
      if (known !== undefined && known >= i.at.getTime()) continue;
      timers.push({
        customerId: i.customerId,
        kind: JOB_KINDS.time,
        key: `auto:${r.triggerEvent}:${r.id}:${i.providerMessageId}`,
        subjectId: i.conversationId,
        dueAt: new Date(i.at.getTime() + (r.minutes ?? 0) * 60_000),
        payload: {
          trigger: r.triggerEvent as TimePayload["trigger"],
          ruleId: r.id,
          conversationId: i.conversationId,
          anchorMessageId: i.providerMessageId,
          anchorAt: i.at.toISOString(),
          ...(r.triggerEvent === "conversation.unanswered" ? { answeredFrom: (i.seenAt ?? i.at).toISOString() } : {}),
          message: messageOf(i),
        } satisfies TimePayload,
      });
    }
  }
  // A newer inbound replaces the conversation's waiting timers: the last inbound is what waits.
  await tx.$executeRawUnsafe(
    `UPDATE "ScheduledJob" AS j SET status = 'CANCELLED', "updatedAt" = ${NOW_UTC}
     FROM unnest($1::text[], $2::text[]) AS t(subject, at)
     WHERE j."subjectId" = t.subject AND j.status = 'PENDING' AND j.kind = $3
       AND (j.payload ->> 'anchorAt')::timestamptz < t.at::timestamptz`,
    waiting.map((i) => i.conversationId),
    waiting.map((i) => i.at.toISOString()),
    JOB_KINDS.time,
  );
  return timers;
}

// The hook in the callback ingest (docs/automation.md "Where rules run"): in the transaction
// that applies inbound messages, each message for an account with enabled rules becomes a
// job (message.inbound, conversation.created) and each of its time rules a timer (idle,
// unanswered), keyed by the provider message id: committed with the message or not at all,
// and a replayed callback schedules nothing twice. Evaluation happens later in the
// automation worker, so the ingest pays one indexed read per batch (none when the batch's
// accounts have no enabled rule) and one insert.
import type { Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { type NewJob, scheduleJobs } from "@/lib/domains/schedule/jobs";
import { JOB_KINDS } from "./actions";
import type { EventPayload, TimePayload } from "./payloads";
import type { TriggerEvent } from "./schemas";

export type InboundForRules = {
  customerId: string;
  senderId: string;
  conversationId: string;
  providerMessageId: string;
  text: string;
  type: string;
  at: Date;
  /** This message started the conversation. */
  created: boolean;
};

type RuleHead = {
  id: string;
  customerId: string;
  triggerEvent: TriggerEvent;
  minutes: number | null;
  senderIds: string[];
};

const watches = (r: RuleHead, i: InboundForRules) =>
  r.customerId === i.customerId && (r.senderIds.length === 0 || r.senderIds.includes(i.senderId));

/** Writes the jobs for these inbound messages in `tx`; returns how many are new. */
export async function enqueueInbound(tx: Tx, items: InboundForRules[]): Promise<number> {
  if (items.length === 0) return 0;
  const rules = await tx.$queryRawUnsafe<RuleHead[]>(
    `SELECT id, "customerId", "triggerEvent", ("trigger" ->> 'minutes')::int AS minutes, "senderIds"
     FROM "AutomationRule" WHERE "customerId" = ANY($1::text[]) AND enabled`,
    [...new Set(items.map((i) => i.customerId))],
  );
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

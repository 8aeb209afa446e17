// Running rules (docs/automation.md): the handler of the automation jobs the scheduler hands
// out (lib/domains/schedule). An event job runs every enabled rule of its trigger; a time job
// runs its one rule once it is still due (a reply cancels it, newer activity moves an idle
// timer). A run is recorded at most once per (rule, event key) by the unique key of
// AutomationRun, in the transaction of its actions: a replayed callback, a second worker or
// a job run again after a crash inserts nothing and so does nothing.
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { type BusinessHours, isInBusinessHours, nextOpening } from "@/lib/domains/business-hours/hours";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import type { ClaimedJob, JobOutcome } from "@/lib/domains/schedule/jobs";
import { Prisma } from "@/lib/generated/prisma/client";
import { JOB_KINDS, type RunContext, type RunConversation, runActions, runOutcome } from "./actions";
import { conditionsHold, eventConditionsHold, type Facts, readsContactFields, readsLabels } from "./conditions";
import { applyLabels, labelsOf } from "./labels";
import type { EventPayload, TimePayload } from "./payloads";
import type { TriggerEvent } from "./schemas";
import { handleReopenJob, handleSendJob } from "./sends";
import { configOf } from "./serializers";

type RuleRow = Prisma.AutomationRuleGetPayload<object>;

export async function loadConversation(
  tx: Tx,
  customerId: string,
  id: string,
): Promise<
  | (RunConversation & {
      lastMessageAt: Date;
      lastInboundAt: Date | null;
      handoffAt: Date | null;
      assignee: { email: string } | null;
    })
  | null
> {
  const c = await tx.conversation.findFirst({
    where: { id, customerId },
    include: {
      sender: { select: { id: true, customerId: true, phoneNumber: true, phoneNumberId: true } },
      assignee: { select: { email: true } },
    },
  });
  return c;
}

async function contactFields(tx: Tx, customerId: string, phone: string): Promise<Record<string, string>> {
  const rows = await tx.contact.findMany({
    where: { customerId, phoneNumber: phone },
    orderBy: { updatedAt: "asc" },
    select: { name: true, email: true, customFields: true },
    take: 20,
  });
  const fields: Record<string, string> = {};
  for (const r of rows) {
    if (r.name) fields.name = r.name;
    if (r.email) fields.email = r.email;
    for (const [k, v] of Object.entries((r.customFields ?? {}) as Record<string, unknown>)) {
      if (v !== null && v !== undefined) fields[k] = String(v);
    }
  }
  return fields;
}

/**
 * Runs one rule for one event on one conversation, once: the run row, the actions and what
 * they emit commit together. Returns the run's id, or null when the conditions do not hold
 * or it already ran. `knownHours`: the account's business hours when the caller read them
 * (once for all the rules of an event), else read here.
 */
export async function runRule(
  rule: RuleRow,
  input: {
    trigger: TriggerEvent;
    eventKey: string;
    conversationId: string;
    message: Facts["message"];
    at: Date;
    depth: number;
  },
  knownHours?: BusinessHours | null,
): Promise<string | null> {
  const config = configOf(rule);
  const hours = knownHours === undefined ? await businessHoursOf(rule.customerId) : knownHours;
  const result = await db.$transaction(async (tx) => {
    const c = await loadConversation(tx, rule.customerId, input.conversationId);
    if (!c) return null;
    if (rule.senderIds.length > 0 && !rule.senderIds.includes(c.senderId)) return null;
    const labels = readsLabels(config.conditions) ? await labelsOf(tx, c) : { contact: [], conversation: [] };
    const facts: Facts = {
      message: input.message,
      contactFields: readsContactFields(config.conditions)
        ? await contactFields(tx, c.customerId, c.contactPhoneNumber)
        : {},
      contactLabels: labels.contact,
      conversationLabels: labels.conversation,
      assignee: c.assignee?.email ?? null,
      status: c.status,
      sender: c.sender.phoneNumber,
      inBusinessHours: hours ? isInBusinessHours(input.at, hours) : true,
    };
    if (!conditionsHold(config.conditions, facts)) return null;
    // The away reply answers once per closed period, whatever the number of messages in it.
    const eventKey =
      rule.builtIn === "away" && hours
        ? `away:${c.id}:${nextOpening(input.at, hours)?.getTime() ?? "never"}`
        : input.eventKey;
    const runId = newId("run_");
    const inserted = await tx.$executeRaw(
      Prisma.sql`INSERT INTO "AutomationRun" ("id", "customerId", "ruleId", "eventKey", "trigger", "conversationId", "outcome", "actions", "createdAt")
        VALUES (${runId}, ${rule.customerId}, ${rule.id}, ${eventKey}, ${input.trigger}, ${c.id}, 'pending', '[]'::jsonb, (now() AT TIME ZONE 'UTC'))
        ON CONFLICT ("ruleId", "eventKey") DO NOTHING`,
    );
    if (inserted === 0) return null;
    const ctx: RunContext = {
      tx,
      rule: { id: rule.id, name: rule.name, lastAssigneeId: rule.lastAssigneeId },
      runId,
      trigger: input.trigger,
      conversation: c,
      now: new Date(),
      events: [],
      jobs: [],
      depth: input.depth,
    };
    const outcomes = await runActions(ctx, config.actions, applyLabels);
    await tx.automationRun.update({
      where: { id: runId },
      data: { outcome: runOutcome(outcomes), actions: outcomes as unknown as Prisma.InputJsonValue },
    });
    return { runId, emitted: ctx.events.length > 0 || ctx.signal === true };
  });
  if (result?.emitted) deliveriesQueued();
  return result?.runId ?? null;
}

/** The enabled rules of one trigger for a customer (the built-in away reply among them). */
const rulesFor = (customerId: string, trigger: TriggerEvent) =>
  db.automationRule.findMany({
    where: { customerId, enabled: true, triggerEvent: trigger },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });

async function handleEventJob(job: ClaimedJob): Promise<JobOutcome> {
  const p = job.payload as unknown as EventPayload;
  const rules = await rulesFor(job.customerId, p.trigger);
  if (rules.length === 0) return { status: "DONE" };
  const at = new Date(p.at);
  const message = p.message ?? null;
  // Read once for the event's rules, not once a rule (docs/benchmarks.md "Automation rules").
  const hours = await businessHoursOf(job.customerId);
  const fixed = { message, inBusinessHours: hours ? isInBusinessHours(at, hours) : true };
  for (const rule of rules) {
    // A rule whose message or time condition fails cannot run: no transaction is opened for it.
    if (!eventConditionsHold(configOf(rule).conditions, fixed)) continue;
    await runRule(
      rule,
      {
        trigger: p.trigger,
        eventKey: `${p.trigger}:${p.eventKey}`,
        conversationId: p.conversationId,
        message,
        at,
        depth: p.depth ?? 0,
      },
      hours,
    );
  }
  return { status: "DONE" };
}

const PERSON = ["api", "dashboard"];

async function handleTimeJob(job: ClaimedJob): Promise<JobOutcome> {
  const p = job.payload as unknown as TimePayload;
  const rule = await db.automationRule.findFirst({ where: { id: p.ruleId, customerId: job.customerId } });
  if (!rule?.enabled || rule.triggerEvent !== p.trigger) return { status: "CANCELLED" };
  const minutes = configOf(rule).trigger.minutes ?? 0;
  const c = await db.conversation.findFirst({
    where: { id: p.conversationId, customerId: job.customerId },
    select: { id: true, status: true, lastMessageAt: true, lastInboundAt: true },
  });
  if (c?.status !== "OPEN") return { status: "CANCELLED" };
  const anchor = new Date(p.anchorAt);
  if (p.trigger === "conversation.unanswered") {
    // A person answered, or the contact wrote again (that message has its own timer).
    const [reply] = await db.conversationMessage.findMany({
      where: { conversationId: c.id, direction: "outbound", sentBy: { in: PERSON }, createdAt: { gte: anchor } },
      select: { id: true },
      take: 1,
    });
    if (reply) return { status: "CANCELLED" };
    if (c.lastInboundAt && c.lastInboundAt.getTime() > anchor.getTime() + 999) return { status: "CANCELLED" };
  } else if (c.lastMessageAt.getTime() > anchor.getTime() + 999) {
    // Activity since: the idle timer moves to count from the last message.
    const dueAt = new Date(c.lastMessageAt.getTime() + minutes * 60_000);
    return { status: "PENDING", dueAt, payload: { ...p, anchorAt: c.lastMessageAt.toISOString() } };
  }
  await runRule(rule, {
    trigger: p.trigger,
    eventKey:
      p.trigger === "conversation.unanswered" ? `unanswered:${p.anchorMessageId}` : `idle:${c.id}:${anchor.getTime()}`,
    conversationId: c.id,
    message: p.message ?? null,
    at: new Date(),
    depth: 0,
  });
  return { status: "DONE" };
}

/** The scheduler's handler for every automation job kind. */
export async function handleAutomationJob(job: ClaimedJob): Promise<JobOutcome> {
  switch (job.kind) {
    case JOB_KINDS.event:
      return handleEventJob(job);
    case JOB_KINDS.time:
      return handleTimeJob(job);
    case JOB_KINDS.send:
      return handleSendJob(job);
    case JOB_KINDS.reopen:
      return handleReopenJob(job);
    default:
      return { status: "FAILED", error: `unknown job kind ${job.kind}` };
  }
}

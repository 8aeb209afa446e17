// Running rules (docs/automation.md): the handler of the automation jobs the scheduler hands
// out (lib/domains/schedule). An event job runs every enabled rule of its trigger; a time job
// runs its one rule once it is still due (a reply cancels it, newer activity moves an idle
// timer). A run is recorded at most once per (rule, event key) by the unique key of
// AutomationRun, in the transaction of its actions: a replayed callback, a second worker or
// a job run again after a crash inserts nothing and so does nothing.
import { db, hotRows, type Tx } from "@/lib/db";
import { plainOrPrismaTransaction, plainTransaction } from "@/lib/db/plain-tx";
import { newId } from "@/lib/db/sql";
import { type BusinessHours, isInBusinessHours, nextOpening } from "@/lib/domains/business-hours/hours";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { deliveriesQueued } from "@/lib/domains/events/signal";
import type { ClaimedJob, JobOutcome } from "@/lib/domains/schedule/jobs";
import { PERSON_REPLY_WHERE } from "@/lib/domains/support/person-reply";
import { Prisma } from "@/lib/generated/prisma/client";
import { JOB_KINDS, type RunContext, type RunConversation, runActions, runOutcome } from "./actions";
import { conditionsHold, eventConditionsHold, type Facts, readsContactFields, readsLabels } from "./conditions";
import { scheduleInboundJobs } from "./enqueue";
import { applyLabels, labelsOf } from "./labels";
import type { EventPayload, InboundPayload, TimePayload } from "./payloads";
import type { Condition, TriggerEvent } from "./schemas";
import { handleReopenJob, handleSendJob } from "./sends";
import { configOf } from "./serializers";

type RuleRow = Prisma.AutomationRuleGetPayload<object>;

/** The run's conversation with its sender and assignee (raw: it runs in a plain transaction, lib/db/plain-tx.ts). */
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
  const [c] = await tx.$queryRaw<
    (RunConversation & {
      lastMessageAt: Date;
      lastInboundAt: Date | null;
      handoffAt: Date | null;
      assignee: { email: string } | null;
    })[]
  >(Prisma.sql`SELECT c.*,
      json_build_object('id', s.id, 'customerId', s."customerId", 'phoneNumber', s."phoneNumber",
        'phoneNumberId', s."phoneNumberId") AS sender,
      CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('email', u.email) END AS assignee
    FROM "Conversation" c JOIN "Sender" s ON s.id = c."senderId" LEFT JOIN "User" u ON u.id = c."assigneeId"
    WHERE c.id = ${id} AND c."customerId" = ${customerId}`);
  return c ?? null;
}

/** A contact's fields across the account's books, the latest written last (the rows `fieldsFrom` reads). */
function fieldsFrom(
  rows: { name: string | null; email: string | null; customFields: unknown }[],
): Record<string, string> {
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

async function contactFields(tx: Tx, customerId: string, phone: string): Promise<Record<string, string>> {
  const rows = await tx.$queryRaw<{ name: string | null; email: string | null; customFields: unknown }[]>(
    Prisma.sql`SELECT name, email, "customFields" FROM "Contact"
      WHERE "customerId" = ${customerId} AND "phoneNumber" = ${phone} ORDER BY "updatedAt" LIMIT 20`,
  );
  return fieldsFrom(rows);
}

/** The conversation's facts a rule's conditions read (all but the event's own: message, time). */
type ConversationFacts = { senderId: string; facts: Omit<Facts, "message" | "inBusinessHours"> };

/**
 * Everything an event's rules read of its conversation, in one plain statement on the pg pool
 * (no transaction, no Prisma): the conversation, its sender and assignee, and when a rule reads
 * them its labels, the contact's labels and the contact's fields. The runner checks every
 * rule of the event against it and opens a transaction only for those that hold
 * (docs/automation.md "Where rules run"). Null when the conversation is gone.
 */
async function readFacts(
  customerId: string,
  conversationId: string,
  wants: { labels: boolean; fields: boolean },
): Promise<ConversationFacts | null> {
  type Row = {
    senderId: string;
    status: string;
    sender: string;
    assignee: string | null;
    conversationLabels: string[] | null;
    contactLabels: string[] | null;
    contacts: { name: string | null; email: string | null; customFields: unknown }[] | null;
  };
  const [row] = await hotRows<Row>({
    text: `SELECT c."senderId", c.status, s."phoneNumber" AS sender, u.email AS assignee,
        CASE WHEN $3 THEN ARRAY(SELECT l.name FROM "ConversationLabel" cl JOIN "Label" l ON l.id = cl."labelId"
          WHERE cl."conversationId" = c.id AND cl."customerId" = c."customerId") END AS "conversationLabels",
        CASE WHEN $3 THEN ARRAY(SELECT l.name FROM "ContactLabel" xl JOIN "Label" l ON l.id = xl."labelId"
          WHERE xl."customerId" = c."customerId" AND xl."phoneNumber" = c."contactPhoneNumber") END AS "contactLabels",
        CASE WHEN $4 THEN (SELECT json_agg(json_build_object('name', k.name, 'email', k.email, 'customFields', k."customFields")
            ORDER BY k."updatedAt")
          FROM (SELECT name, email, "customFields", "updatedAt" FROM "Contact"
            WHERE "customerId" = c."customerId" AND "phoneNumber" = c."contactPhoneNumber"
            ORDER BY "updatedAt" LIMIT 20) k) END AS contacts
      FROM "Conversation" c JOIN "Sender" s ON s.id = c."senderId" LEFT JOIN "User" u ON u.id = c."assigneeId"
      WHERE c.id = $1 AND c."customerId" = $2`,
    values: [conversationId, customerId, wants.labels, wants.fields],
  });
  if (!row) return null;
  return {
    senderId: row.senderId,
    facts: {
      contactFields: wants.fields ? fieldsFrom(row.contacts ?? []) : {},
      contactLabels: row.contactLabels ?? [],
      conversationLabels: row.conversationLabels ?? [],
      assignee: row.assignee,
      status: row.status,
      sender: row.sender,
    },
  };
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
  // A plain transaction (lib/db/plain-tx.ts): a rule whose actions need Prisma (an assignment,
  // an SLA policy to choose again) runs again in a Prisma one, the plain one rolled back.
  const result = await plainOrPrismaTransaction(
    async (tx) => {
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
      await tx.$executeRaw(
        Prisma.sql`UPDATE "AutomationRun" SET outcome = ${runOutcome(outcomes)}, actions = ${JSON.stringify(outcomes)}::jsonb
        WHERE id = ${runId}`,
      );
      return { runId, emitted: ctx.events.length > 0 || ctx.signal === true };
    },
    (work) => db.$transaction(work),
  );
  if (result?.emitted) deliveriesQueued();
  return result?.runId ?? null;
}

/** The enabled rules of one trigger for a customer (the built-in away reply among them). */
const rulesFor = (customerId: string, trigger: TriggerEvent) =>
  db.automationRule.findMany({
    where: { customerId, enabled: true, triggerEvent: trigger },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });

/**
 * Read once per pass of the worker (up to a claim's 50 jobs, a second or so), not once per
 * job: the account's rules of a trigger and its business hours. A rule changed meanwhile is
 * read by the next pass, as it would be by the next job.
 */
function memo<T>(pass: Map<string, unknown>, key: string, read: () => Promise<T>): Promise<T> {
  let value = pass.get(key) as Promise<T> | undefined;
  if (!value) {
    value = read();
    // A failed read is not kept: the next job of the pass reads again.
    value.catch(() => pass.delete(key));
    pass.set(key, value);
  }
  return value;
}

async function handleEventJob(job: ClaimedJob, pass: Map<string, unknown>): Promise<JobOutcome> {
  const p = job.payload as unknown as EventPayload;
  const rules = await memo(pass, `rules:${job.customerId}:${p.trigger}`, () => rulesFor(job.customerId, p.trigger));
  if (rules.length === 0) return { status: "DONE" };
  const at = new Date(p.at);
  const message = p.message ?? null;
  const hours = await memo(pass, `hours:${job.customerId}`, () => businessHoursOf(job.customerId));
  const fixed = { message, inBusinessHours: hours ? isInBusinessHours(at, hours) : true };
  // A rule whose message or time condition fails cannot run, whatever the conversation says.
  const candidates = rules
    .map((rule) => ({ rule, conditions: configOf(rule).conditions as readonly Condition[] }))
    .filter((r) => eventConditionsHold(r.conditions, fixed));
  if (candidates.length === 0) return { status: "DONE" };
  const wants = {
    labels: candidates.some((r) => readsLabels(r.conditions)),
    fields: candidates.some((r) => readsContactFields(r.conditions)),
  };
  // One read of the conversation for all of them: only the rules that hold on it open a
  // transaction (which reads and checks again, so a change since is seen). A rule that ran
  // may have changed what the next ones read (its labels, the assignee): read again after it.
  let known = await readFacts(job.customerId, p.conversationId, wants);
  for (const { rule, conditions } of candidates) {
    if (!known) break;
    if (rule.senderIds.length > 0 && !rule.senderIds.includes(known.senderId)) continue;
    if (!conditionsHold(conditions, { ...known.facts, ...fixed })) continue;
    const ran = await runRule(
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
    if (ran) known = await readFacts(job.customerId, p.conversationId, wants);
  }
  return { status: "DONE" };
}

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
    // A person answered, or the contact wrote again (that message has its own timer). An answer is
    // a reply sent once the message could be seen (payloads.ts StagedInbound.seenAt).
    const answeredFrom = p.answeredFrom ? new Date(p.answeredFrom) : anchor;
    const [reply] = await db.conversationMessage.findMany({
      where: { conversationId: c.id, ...PERSON_REPLY_WHERE, createdAt: { gte: answeredFrom } },
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

/**
 * A callback batch's staged messages become their event jobs and timers, in one transaction:
 * all of them or none, and a second run (the job run again after a crash) finds their keys.
 */
async function handleInboundJob(job: ClaimedJob): Promise<JobOutcome> {
  const { items } = job.payload as unknown as InboundPayload;
  // Staged per account: the job's own account is the only one its messages may name.
  const own = items.filter((i) => i.customerId === job.customerId);
  await plainTransaction((tx) => scheduleInboundJobs(tx, own));
  return { status: "DONE" };
}

/** The scheduler's handler for every automation job kind. */
export async function handleAutomationJob(job: ClaimedJob, pass = new Map<string, unknown>()): Promise<JobOutcome> {
  switch (job.kind) {
    case JOB_KINDS.inbound:
      return handleInboundJob(job);
    case JOB_KINDS.event:
      return handleEventJob(job, pass);
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

// A rule's actions on one conversation (docs/automation.md "Actions"), inside the transaction
// that records the run: the run row and what the actions write commit together, so a crash
// leaves neither, and the job that caused them runs again and finds nothing done. Each action
// runs under a savepoint: one that fails is recorded `failed` with its reason and the others
// still run. Sends are not made here: each is a job of its own (sends.ts), written in this
// transaction, so the provider call never holds it open and a send is made once.
import { ApiError } from "@/lib/core/errors";
import type { Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { assigneeFor, setAssignee } from "@/lib/domains/conversations/assignment";
import { nextAgent } from "@/lib/domains/conversations/auto-assign";
import { closedEvent, emitConversationEvents } from "@/lib/domains/conversations/events";
import type { EventInput, EventSender } from "@/lib/domains/events/emit";
import { publishLive } from "@/lib/domains/live/publish";
import { type NewJob, scheduleJobs } from "@/lib/domains/schedule/jobs";
import { refreshSla } from "@/lib/domains/sla/timers";
import { RULE_CLOSER, recordClose } from "@/lib/domains/support/periods";
import { Prisma } from "@/lib/generated/prisma/client";
import { AutomationTriggered } from "./event-types";
import type { Action, ActionOutcome, TriggerEvent } from "./schemas";

export const JOB_KINDS = {
  /**
   * A callback batch's inbound messages for the rules (enqueue.ts `stageInbound`): the worker
   * turns them into the event jobs and timers below, outside the callback's transaction.
   */
  inbound: "automation.inbound",
  /** An event happened (an inbound message, a new conversation, labels changed): the rules for it run. */
  event: "automation.event",
  /** A time trigger of one rule (idle, unanswered) comes due. */
  time: "automation.time",
  /** A send action of a run. */
  send: "automation.send",
  /** A snoozed conversation opens again. */
  reopen: "automation.reopen",
} as const;

export type RunConversation = {
  id: string;
  customerId: string;
  senderId: string;
  contactPhoneNumber: string;
  contactName: string | null;
  status: string;
  assigneeId: string | null;
  createdAt: Date;
  sender: EventSender;
};

export type RunContext = {
  tx: Tx;
  rule: { id: string; name: string; lastAssigneeId: string | null };
  runId: string;
  trigger: TriggerEvent;
  conversation: RunConversation;
  now: Date;
  /** Events to emit with the run (conversation.assigned, automation.triggered, ...). */
  events: EventInput[];
  jobs: NewJob[];
  /** 1 when a rule's own label change triggered this run: its label changes trigger nothing more. */
  depth: number;
  /** An action emitted an event itself (a label change): the delivery worker is signalled after the commit. */
  signal?: boolean;
  /**
   * The run leaves the conversation closed: its own close or snooze, or a close it found (its
   * close skipped, the conversation already closed by an earlier rule or run).
   */
  leavesClosed?: boolean;
};

/** Who a change names as its author (assignedBy, closedBy, a note's author). */
export const actorName = (ruleName: string) => `automation: ${ruleName}`;

const done = (type: Action["type"], reason: string | null = null): ActionOutcome => ({ type, outcome: "done", reason });

/** Agents who may handle the sender's conversations, for the round-robin (online or not). */
async function roundRobinPick(ctx: RunContext) {
  const agents = await ctx.tx.$queryRaw<{ id: string; email: string; name: string | null; open: number }[]>(
    Prisma.sql`SELECT u."id", u."email", u."name", 0 AS "open" FROM "User" u
      WHERE u."customerId" = ${ctx.conversation.customerId} AND u."role" = 'agent'
        AND (u."sendersLimited" = false OR EXISTS (SELECT 1 FROM "MemberSender" ms
          WHERE ms."userId" = u."id" AND ms."senderId" = ${ctx.conversation.senderId}))
      ORDER BY u."id"`,
  );
  // The rule's last pick read under a row lock: runs of the rule in two workers at once take
  // turns instead of both picking the agent after the one the rule row held when loaded.
  const [rule] = await ctx.tx.$queryRaw<{ lastAssigneeId: string | null }[]>(
    Prisma.sql`SELECT "lastAssigneeId" FROM "AutomationRule" WHERE "id" = ${ctx.rule.id} FOR UPDATE`,
  );
  return nextAgent(agents, rule ? rule.lastAssigneeId : ctx.rule.lastAssigneeId, Number.POSITIVE_INFINITY);
}

async function assign(ctx: RunContext, action: Extract<Action, { type: "assign" }>): Promise<ActionOutcome> {
  const c = ctx.conversation;
  let assignee: { userId: string; email: string; name: string | null };
  if (action.roundRobin) {
    const agent = await roundRobinPick(ctx);
    if (!agent) return { type: "assign", outcome: "skipped", reason: "no agent may handle this sender" };
    assignee = { userId: agent.id, email: agent.email, name: agent.name };
    await ctx.tx.automationRule.update({ where: { id: ctx.rule.id }, data: { lastAssigneeId: agent.id } });
  } else {
    assignee = await assigneeFor(ctx.tx, c.customerId, c.senderId, action.assignee ?? "");
  }
  const event = await setAssignee(ctx.tx, c, assignee, actorName(ctx.rule.name));
  if (!event) return done("assign", `already assigned to ${assignee.email}`);
  ctx.events.push(event);
  c.assigneeId = assignee.userId;
  await publishLive(ctx.tx, c.customerId, [
    { kind: "conversation.assigned", senderId: c.senderId, conversationUid: c.id, assignee: assignee.email },
  ]);
  return done("assign", assignee.email);
}

async function note(ctx: RunContext, text: string): Promise<ActionOutcome> {
  // Raw: a rule runs in a plain transaction (lib/db/plain-tx.ts).
  await ctx.tx.$executeRaw(Prisma.sql`INSERT INTO "ConversationNote"
      ("id", "customerId", "conversationId", "text", "authorType", "authorEmail", "authorTokenName", "createdAt")
    VALUES (${newId("note_")}, ${ctx.conversation.customerId}, ${ctx.conversation.id}, ${text}, 'automation', NULL,
      ${ctx.rule.name}, ${ctx.now}::timestamp(3))`);
  return done("note");
}

/**
 * Closes the conversation; returns whether it was open. A close resolves the support period and
 * ends its SLA due times, as a member's close does (docs/reports.md "Definitions"); a snooze
 * (`resolves` false) defers the conversation without resolving it: it schedules the reopening,
 * and the period and its due times run on until somebody closes it. Either way the conversation
 * is closed after it (`ctx.leavesClosed`): it was open and is closed now, or it was closed.
 */
async function close(ctx: RunContext, resolves: boolean): Promise<boolean> {
  const c = ctx.conversation;
  const { count } = await ctx.tx.conversation.updateMany({
    where: { id: c.id, customerId: c.customerId, status: "OPEN" },
    data: { status: "CLOSED", closedAt: ctx.now },
  });
  if (count === 0) {
    // Not OPEN is CLOSED (the only two statuses): an earlier rule or run closed it.
    ctx.leavesClosed = true;
    return false;
  }
  c.status = "CLOSED";
  if (resolves) {
    await recordClose(ctx.tx, c.id, ctx.now, RULE_CLOSER);
    await refreshSla(ctx.tx, [c.id], false);
  }
  ctx.events.push(closedEvent(c.sender, c, ctx.now, actorName(ctx.rule.name)));
  await publishLive(ctx.tx, c.customerId, [
    { kind: "conversation.changed", senderId: c.senderId, conversationUid: c.id, status: "CLOSED" },
  ]);
  ctx.leavesClosed = true;
  return true;
}

function webhook(ctx: RunContext): ActionOutcome {
  const c = ctx.conversation;
  ctx.events.push(
    AutomationTriggered.of({
      sender: c.sender,
      dedupeKey: `automation.triggered:${ctx.runId}`,
      createdAt: ctx.now,
      data: {
        ruleUid: ctx.rule.id,
        ruleName: ctx.rule.name,
        runUid: ctx.runId,
        trigger: ctx.trigger,
        conversationUid: c.id,
        contactPhoneNumber: c.contactPhoneNumber,
        at: ctx.now.toISOString(),
      },
    }),
  );
  return done("webhook");
}

/** Label changes are made through the labels service (labels.ts). */
export type LabelApplier = (
  ctx: RunContext,
  action: Extract<Action, { type: "label" | "unlabel" }>,
) => Promise<ActionOutcome>;

async function runOne(ctx: RunContext, action: Action, index: number, labels: LabelApplier): Promise<ActionOutcome> {
  switch (action.type) {
    case "assign":
      return assign(ctx, action);
    case "label":
    case "unlabel":
      return labels(ctx, action);
    case "note":
      return note(ctx, action.text);
    case "close":
      return (await close(ctx, true)) ? done("close") : { type: "close", outcome: "skipped", reason: "already closed" };
    case "snooze": {
      if (!(await close(ctx, false))) return { type: "snooze", outcome: "skipped", reason: "already closed" };
      const until = new Date(ctx.now.getTime() + action.minutes * 60_000);
      ctx.jobs.push({
        customerId: ctx.conversation.customerId,
        kind: JOB_KINDS.reopen,
        key: `auto:reopen:${ctx.runId}:${index}`,
        subjectId: ctx.conversation.id,
        dueAt: until,
        payload: { conversationId: ctx.conversation.id, closedAt: ctx.now.toISOString(), ruleName: ctx.rule.name },
      });
      return done("snooze", `until ${until.toISOString()}`);
    }
    case "webhook":
      return webhook(ctx);
    case "send_text":
    case "send_template":
      ctx.jobs.push({
        customerId: ctx.conversation.customerId,
        kind: JOB_KINDS.send,
        key: `auto:send:${ctx.runId}:${index}`,
        subjectId: ctx.conversation.id,
        dueAt: ctx.now,
        payload: { runId: ctx.runId, index, conversationId: ctx.conversation.id, ruleName: ctx.rule.name, action },
      });
      return { type: action.type, outcome: "pending", reason: "queued" };
  }
}

/**
 * Runs the actions in order under savepoints, then writes the events and jobs they produced;
 * returns each action's outcome.
 */
export async function runActions(
  ctx: RunContext,
  actions: readonly Action[],
  labels: LabelApplier,
): Promise<ActionOutcome[]> {
  const outcomes: ActionOutcome[] = [];
  for (const [index, action] of actions.entries()) {
    const events = ctx.events.length;
    const jobs = ctx.jobs.length;
    await ctx.tx.$executeRawUnsafe("SAVEPOINT automation_action");
    try {
      outcomes.push(await runOne(ctx, action, index, labels));
      await ctx.tx.$executeRawUnsafe("RELEASE SAVEPOINT automation_action");
    } catch (error) {
      await ctx.tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT automation_action");
      ctx.events.length = events;
      ctx.jobs.length = jobs;
      if (!(error instanceof ApiError)) throw error;
      outcomes.push({ type: action.type, outcome: "failed", reason: error.message });
    }
  }
  if (ctx.events.length > 0) await emitConversationEvents(ctx.tx, ctx.events);
  await scheduleJobs(ctx.tx, closedWith(ctx));
  return outcomes;
}

/**
 * The run's jobs; when the run left the conversation closed (its close or snooze, or one it found
 * already closed), its sends (queued, so they go out after the close) are marked `keepsClosed`:
 * such a send never reopens the conversation (sends.ts). A rule of `[send_text, close]` answers
 * and closes, in either order, and so does it after an earlier rule's close of the same message.
 */
function closedWith(ctx: RunContext): NewJob[] {
  if (!ctx.leavesClosed) return ctx.jobs;
  return ctx.jobs.map((job) =>
    job.kind === JOB_KINDS.send ? { ...job, payload: { ...job.payload, keepsClosed: true } } : job,
  );
}

/** The run's outcome from its actions': failed if any failed, done if any was done or waits, else skipped. */
export function runOutcome(outcomes: readonly ActionOutcome[]): "done" | "skipped" | "failed" | "pending" {
  if (outcomes.some((o) => o.outcome === "failed")) return "failed";
  if (outcomes.some((o) => o.outcome === "pending")) return "pending";
  if (outcomes.some((o) => o.outcome === "done")) return "done";
  return "skipped";
}

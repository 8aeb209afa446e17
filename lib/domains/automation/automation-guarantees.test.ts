// The guarantees of automation rules (docs/automation.md "Guarantees"), each shown failing
// the way it would without the mechanism that holds it: the unique run key under replays,
// two workers and a restart; durable timers a reply cancels; the window; chatbots first.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { claimDueJobs } from "@/lib/domains/schedule/jobs";
import { contactWrites, drainCallbacks, inboundBody, postSigned } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { addTemplate, HELLO_PARAMS, messagingCustomer } from "@/test/messaging-fixtures";
import { runRule } from "./runner";
import { AUTOMATION_KINDS, runAutomationJobs, runStagedInbound } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;

const work = async (customer = t) => {
  for (let i = 0; i < 10; i++) if ((await runAutomationJobs({ customerIds: [customer.customer.id] })) === 0) return;
};
async function createRule(rule: Record<string, unknown>, customer = t): Promise<string> {
  const res = await call("POST", "/api/v3/automations", { token: customer.globalToken, body: { rule } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.ruleUid as string;
}
const disable = (uid: string) =>
  call("POST", `/api/v3/automations/${uid}`, { token: t.globalToken, body: { rule: { enabled: false } } });
const runsOf = (ruleId: string) => db.automationRun.findMany({ where: { ruleId } });
const conversationOf = (contact: string, customer = t) =>
  db.conversation.findFirstOrThrow({ where: { senderId: customer.sender.id, contactPhoneNumber: contact } });
const toProvider = (contact: string) => getSimulator()?.acceptedTo(contact) ?? [];
/** Time passes for these jobs: they are due now. */
const elapse = (where: { customerId: string; kind?: string; subjectId?: string }) =>
  db.scheduledJob.updateMany({ where: { ...where, status: "PENDING" }, data: { dueAt: new Date(Date.now() - 1000) } });

beforeAll(async () => {
  t = await messagingCustomer();
});

describe("exactly once", () => {
  it("a replayed callback schedules nothing twice and the rule runs once", async () => {
    const uid = await createRule({
      name: "once",
      trigger: { event: "message.inbound" },
      actions: [{ type: "note", text: "n" }],
    });
    const contact = uniquePhone();
    const id = await contactWrites(t.sender, contact, "hello");
    // The provider sends the same callback again, after the first was applied and after the run.
    await work();
    expect(await postSigned(inboundBody(t.sender, { from: contact, text: "hello", id }))).toBe(200);
    await drainCallbacks();
    await work();
    expect(await db.scheduledJob.count({ where: { key: { contains: id } } })).toBe(1);
    expect(await runsOf(uid)).toHaveLength(1);
    const c = await conversationOf(contact);
    expect(await db.conversationNote.count({ where: { conversationId: c.id } })).toBe(1);
    await disable(uid);
  });

  it("two workers running the same event at once: one run, one set of actions (the unique run key)", async () => {
    const uid = await createRule({
      name: "race",
      trigger: { event: "message.inbound" },
      actions: [{ type: "note", text: "r" }],
    });
    const contact = uniquePhone();
    const id = await contactWrites(t.sender, contact, "hello");
    const c = await conversationOf(contact);
    const rule = await db.automationRule.findUniqueOrThrow({ where: { id: uid } });
    const input = {
      trigger: "message.inbound" as const,
      eventKey: `message.inbound:${id}`,
      conversationId: c.id,
      message: { text: "hello", type: "text" },
      at: new Date(),
      depth: 0,
    };
    const results = await Promise.all([runRule(rule, input), runRule(rule, input), runRule(rule, input)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    // The job the ingest wrote runs too (a third worker): still nothing more.
    await work();
    expect(await runsOf(uid)).toHaveLength(1);
    expect(await db.conversationNote.count({ where: { conversationId: c.id } })).toBe(1);
    await disable(uid);
  });

  it("a restart: a job claimed by a worker that died is taken again when its lease ends, and runs once", async () => {
    const uid = await createRule({
      name: "restart",
      trigger: { event: "message.inbound" },
      actions: [{ type: "note", text: "x" }],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello");
    // A worker claims the job and dies before it does anything.
    const claimed = await claimDueJobs(AUTOMATION_KINDS, 50, 60_000, [t.customer.id]);
    expect(claimed.length).toBeGreaterThan(0);
    expect(await runAutomationJobs({ customerIds: [t.customer.id] })).toBe(0); // leased: nobody else takes it
    await db.scheduledJob.updateMany({
      where: { id: { in: claimed.map((j) => j.id) } },
      data: { lockedUntil: new Date(Date.now() - 1000) },
    });
    await work();
    expect(await runsOf(uid)).toHaveLength(1);
    // A worker that ran the rule but died before finishing its job: the job runs again, the run does not.
    await db.scheduledJob.updateMany({
      where: { id: { in: claimed.map((j) => j.id) } },
      data: { status: "PENDING", lockedUntil: null },
    });
    await work();
    expect(await runsOf(uid)).toHaveLength(1);
    const c = await conversationOf(contact);
    expect(await db.conversationNote.count({ where: { conversationId: c.id } })).toBe(1);
    await disable(uid);
  });
});

describe("time triggers are durable, cancelled by a reply", () => {
  it("unanswered: a timer in the database, run once when due; a person's reply cancels it, a reaction does not", async () => {
    const uid = await createRule({
      name: "nudge",
      trigger: { event: "conversation.unanswered", minutes: 30 },
      actions: [{ type: "note", text: "waiting 30 min" }],
    });
    const waiting = uniquePhone();
    const answered = uniquePhone();
    const reacted = uniquePhone();
    await contactWrites(t.sender, waiting, "anyone?");
    await contactWrites(t.sender, answered, "anyone?");
    const theirs = await contactWrites(t.sender, reacted, "anyone?");
    // The worker makes the timers of the messages the callbacks staged (docs/automation.md "Where rules run").
    await runStagedInbound({ customerIds: [t.customer.id] });
    const timers = await db.scheduledJob.findMany({
      where: { customerId: t.customer.id, kind: "automation.time", status: "PENDING" },
    });
    expect(timers).toHaveLength(3);
    expect(timers[0]?.dueAt.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    await work();
    expect(await runsOf(uid)).toHaveLength(0); // not yet due
    const a = await conversationOf(answered);
    const reply = await call("POST", `/api/v3/conversations/${a.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "Here!" } } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    // The business's 👍 answers nothing (docs/reports.md "Definitions"): the contact still waits.
    const r = await conversationOf(reacted);
    const entry = await db.conversationMessage.findFirstOrThrow({ where: { providerMessageId: theirs } });
    const reaction = await call("POST", `/api/v3/conversations/${r.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "reaction", reaction: { messageId: entry.id, emoji: "👍" } } },
    });
    expect(reaction.status, JSON.stringify(reaction.body)).toBe(200);
    await elapse({ customerId: t.customer.id, kind: "automation.time" });
    await work();
    await work();
    const runs = await runsOf(uid);
    expect(runs.map((run) => run.conversationId).sort()).toEqual([(await conversationOf(waiting)).id, r.id].sort());
    const jobs = await db.scheduledJob.findMany({ where: { customerId: t.customer.id, kind: "automation.time" } });
    expect(jobs.map((j) => [j.subjectId, j.status]).sort()).toEqual(
      [
        [a.id, "CANCELLED"],
        [(await conversationOf(waiting)).id, "DONE"],
        [r.id, "DONE"],
      ].sort(),
    );
    await disable(uid);
  });

  it("unanswered: a person's send the message followed is no answer, though the message is dated before it", async () => {
    const uid = await createRule({
      name: "nudge late",
      trigger: { event: "conversation.unanswered", minutes: 30 },
      actions: [{ type: "note", text: "waiting 30 min" }],
    });
    const contact = uniquePhone();
    const sent = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: contact, template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const c = await conversationOf(contact);
    const send = await db.conversationMessage.findFirstOrThrow({
      where: { conversationId: c.id, direction: "outbound" },
    });
    // The contact answers the send, and the message is processed more than a second after the
    // provider's whole second it carries: dated before the send (inbox-rules has the same case).
    await contactWrites(t.sender, contact, "where is it?", { at: new Date(send.createdAt.getTime() - 1000) });
    await runStagedInbound({ customerIds: [t.customer.id] });
    await elapse({ customerId: t.customer.id, kind: "automation.time", subjectId: c.id });
    await work();
    expect((await runsOf(uid)).map((run) => run.conversationId)).toEqual([c.id]);
    await disable(uid);
  });

  it("idle: activity moves the timer; due with no message either way, it runs once", async () => {
    const uid = await createRule({
      name: "idle",
      trigger: { event: "conversation.idle", minutes: 60 },
      actions: [{ type: "note", text: "idle" }],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hi");
    await runStagedInbound({ customerIds: [t.customer.id] });
    const c = await conversationOf(contact);
    // A message after the timer was set (our reply): the due timer moves to an hour after it.
    const later = new Date(Date.now() + 5_000);
    await db.conversation.update({ where: { id: c.id }, data: { lastMessageAt: later } });
    await elapse({ customerId: t.customer.id, subjectId: c.id });
    await work();
    expect(await runsOf(uid)).toHaveLength(0);
    const moved = await db.scheduledJob.findFirstOrThrow({ where: { subjectId: c.id, kind: "automation.time" } });
    expect(moved.status).toBe("PENDING");
    expect(moved.dueAt.getTime()).toBe(later.getTime() + 60 * 60_000);
    await elapse({ customerId: t.customer.id, subjectId: c.id });
    await work();
    expect(await runsOf(uid)).toHaveLength(1);
    await disable(uid);
  });
});

describe("the window is known", () => {
  it("send_text outside the window is skipped: window_closed; with fallbackTemplate the template goes", async () => {
    const template = await addTemplate(t.customer.id, { name: "we_are_back", category: "UTILITY" });
    // No parameters: the fallback names none.
    await db.template.update({
      where: { id: template.id },
      data: { components: [{ type: "BODY", text: "We are back" }] },
    });
    const plain = await createRule({
      name: "late",
      trigger: { event: "conversation.unanswered", minutes: 1 },
      actions: [{ type: "send_text", text: "Still there?" }],
    });
    const withFallback = await createRule({
      name: "late with template",
      trigger: { event: "conversation.unanswered", minutes: 1 },
      actions: [{ type: "send_text", text: "Still there?", fallbackTemplate: { name: "we_are_back", language: "en" } }],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hi");
    await runStagedInbound({ customerIds: [t.customer.id] });
    const c = await conversationOf(contact);
    // A day passes: the window is closed when the timers are due.
    const past = new Date(Date.now() - 25 * 3600_000);
    await db.conversation.update({
      where: { id: c.id },
      data: { lastInboundAt: past, windowExpiresAt: new Date(past.getTime() + 24 * 3600_000) },
    });
    await db.$executeRaw`UPDATE "ScheduledJob" SET payload = jsonb_set(payload, '{anchorAt}', to_jsonb(${past.toISOString()}::text)) WHERE "subjectId" = ${c.id}`;
    await elapse({ customerId: t.customer.id, subjectId: c.id });
    await work();
    const [skipped] = await runsOf(plain);
    expect(skipped).toMatchObject({ outcome: "skipped" });
    expect(skipped?.actions).toEqual([{ type: "send_text", outcome: "skipped", reason: "window_closed" }]);
    const [fallback] = await runsOf(withFallback);
    expect(fallback?.actions).toEqual([
      { type: "send_text", outcome: "done", reason: "window_closed: sent the fallback template we_are_back" },
    ]);
    const sent = toProvider(contact);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.type).toBe("template");
    await disable(plain);
    await disable(withFallback);
  });
});

/** A new customer whose sender has an ACTIVE bot that answers nothing these tests say ("zzz" only). */
async function customerWithBot(): Promise<Customer> {
  const fresh = await messagingCustomer();
  const bot = await call("POST", "/api/v3/chatbots", {
    token: fresh.globalToken,
    body: {
      chatbot: {
        name: "Bot",
        status: "ACTIVE",
        rules: [{ match: { type: "keyword", value: "zzz" }, reply: { type: "text", text: "z" } }],
      },
    },
  });
  expect(bot.status, JSON.stringify(bot.body)).toBe(201);
  return fresh;
}

describe("chatbots first", () => {
  it("while a bot owns the conversation a send waits and a note runs; after the hand-off the send goes", async () => {
    const fresh = await customerWithBot();
    const uid = await createRule(
      {
        name: "both",
        trigger: { event: "message.inbound" },
        actions: [
          { type: "note", text: "seen" },
          { type: "send_text", text: "A person will write" },
        ],
      },
      fresh,
    );
    const contact = uniquePhone();
    await contactWrites(fresh.sender, contact, "hello");
    await work(fresh);
    const [run] = await runsOf(uid);
    expect(run?.actions).toEqual([
      { type: "note", outcome: "done", reason: null },
      { type: "send_text", outcome: "pending", reason: "waiting: a chatbot owns the conversation" },
    ]);
    expect(toProvider(contact)).toHaveLength(0);
    const c = await conversationOf(contact, fresh);
    expect(await db.conversationNote.count({ where: { conversationId: c.id } })).toBe(1);
    // The bot hands off; the waiting send is due again.
    await db.conversation.update({ where: { id: c.id }, data: { handoffAt: new Date() } });
    await elapse({ customerId: fresh.customer.id, kind: "automation.send" });
    await work(fresh);
    expect(toProvider(contact)).toHaveLength(1);
    const [after] = await runsOf(uid);
    expect(after?.outcome).toBe("done");
  });
});

describe("chatbots first, after a close", () => {
  it("a person's reply before the close holds nothing after it: the bot owns the reopened conversation", async () => {
    const fresh = await customerWithBot();
    const uid = await createRule(
      {
        name: "welcome back",
        trigger: { event: "message.inbound" },
        conditions: [{ field: "message.text", op: "contains", value: "back again" }],
        actions: [{ type: "send_text", text: "Welcome back" }],
      },
      fresh,
    );
    const contact = uniquePhone();
    await contactWrites(fresh.sender, contact, "hello");
    const c = await conversationOf(contact, fresh);
    const reply = await call("POST", `/api/v3/conversations/${c.id}/messages`, {
      token: fresh.globalToken,
      body: { message: { type: "text", text: { body: "Sam here, all sorted" } } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const closed = await call("POST", `/api/v3/conversations/${c.id}`, {
      token: fresh.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // Minutes later, well within 30 of the person's reply, the contact writes again.
    await contactWrites(fresh.sender, contact, "back again");
    await work(fresh);
    const [run] = await runsOf(uid);
    expect(run?.actions).toEqual([
      { type: "send_text", outcome: "pending", reason: "waiting: a chatbot owns the conversation" },
    ]);
    expect(toProvider(contact)).toHaveLength(1); // the person's reply only
  });
});

describe("the away reply", () => {
  it("answers once per closed period outside business hours", async () => {
    const fresh = await messagingCustomer();
    const set = await call("POST", "/api/v3/settings/business-hours", {
      token: fresh.globalToken,
      // Open one minute a week, on a day that is not today: closed now, and the period is the same for both messages.
      body: {
        businessHours: {
          timezone: "UTC",
          days: [{ day: (new Date().getUTCDay() + 3) % 7, open: "03:00", close: "03:01" }],
          holidays: [],
        },
        awayReply: { enabled: true, text: "We are closed" },
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const contact = uniquePhone();
    await contactWrites(fresh.sender, contact, "hello?");
    await work(fresh);
    await contactWrites(fresh.sender, contact, "hello again?");
    await work(fresh);
    const sent = toProvider(contact);
    expect(sent).toHaveLength(1);
    const message = await db.message.findFirstOrThrow({ where: { customerId: fresh.customer.id, recipient: contact } });
    expect(message.payload).toMatchObject({ type: "text", text: { body: "We are closed" } });
  });
});

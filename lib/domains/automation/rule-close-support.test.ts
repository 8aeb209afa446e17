// A rule's close in the support figures (docs/reports.md "Definitions", "By member"): it
// resolves the period as a member's close does, so the SLA's due times end and no breach is
// recorded on a closed conversation, and the contact's next message opens a new period
// (`reopened`); a rule's snooze defers the conversation without resolving it.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runDueJobs } from "@/lib/domains/schedule/jobs";
import { SLA_JOB_KIND } from "@/lib/domains/sla/timers";
import { runSlaJobs } from "@/lib/domains/sla/worker";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { JOB_KINDS } from "./actions";
import { handleAutomationJob } from "./runner";
import { AUTOMATION_KINDS, runAutomationJobs } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;

const work = async () => {
  for (let i = 0; i < 10; i++) if ((await runAutomationJobs({ customerIds: [t.customer.id] })) === 0) return;
};
async function create(path: string, key: string, value: Record<string, unknown>): Promise<void> {
  const res = await call("POST", `/api/v3/${path}`, { token: t.globalToken, body: { [key]: value } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
const inboundRule = (name: string, words: string, actions: Record<string, unknown>[]) =>
  create("automations", "rule", {
    name,
    trigger: { event: "message.inbound" },
    conditions: [{ field: "message.text", op: "contains", value: words }],
    actions,
  });
/** The rules run, their sends held back (they stay due). */
const rulesOnly = async () => {
  const kinds = AUTOMATION_KINDS.filter((k) => k !== JOB_KINDS.send);
  const pass = () =>
    runDueJobs({ name: "rules only", kinds, handle: handleAutomationJob, customerIds: [t.customer.id] });
  for (let i = 0; i < 10; i++) if ((await pass()) === 0) return;
};
const conversationOf = (contact: string) =>
  db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });
/** A new contact writes `text`, the rules run (`run`: all of it, sends included, by default); the conversation after. */
async function writesThenRules(text: string, run: () => Promise<void> = work) {
  const contact = uniquePhone();
  await contactWrites(t.sender, contact, text);
  await run();
  return { contact, c: await conversationOf(contact) };
}
const periodsOf = (conversationId: string) =>
  db.supportPeriod.findMany({ where: { conversationId }, orderBy: { startedAt: "asc" } });
/**
 * Three hours pass, past every target of the policy: the conversation's periods, as they are,
 * move three hours into the past, its pending SLA timers are due, and the SLA worker runs.
 */
async function timersFire(conversationId: string): Promise<void> {
  await db.$executeRaw`UPDATE "SupportPeriod" SET "startedAt" = "startedAt" - interval '3 hours',
      "waitingSince" = "waitingSince" - interval '3 hours', "resolvedAt" = "resolvedAt" - interval '3 hours'
    WHERE "conversationId" = ${conversationId}`;
  await db.scheduledJob.updateMany({
    where: { subjectId: conversationId, kind: SLA_JOB_KIND, status: "PENDING" },
    data: { dueAt: new Date(Date.now() - 1000) },
  });
  for (let i = 0; i < 10; i++) if ((await runSlaJobs({ customerIds: [t.customer.id] })) === 0) return;
}
const HOUR = 3_600_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const breachesOf = (conversationId: string) => db.slaBreach.count({ where: { conversationId } });

beforeAll(async () => {
  t = await messagingCustomer();
  await create("sla-policies", "policy", {
    name: "Everyone",
    firstResponseMinutes: 60,
    resolutionMinutes: 120,
    applies: { senderIds: [], labels: [] },
  });
  // Each rule runs on a contact's message containing its words; created in this order, they run in it.
  await inboundRule("Goodbyes", "thanks bye", [{ type: "close" }]);
  await inboundRule("Answer, then close", "opening hours", [
    { type: "send_text", text: "We open at 9." },
    { type: "close" },
  ]);
  await inboundRule("Close, then answer", "unsubscribe me", [{ type: "close" }, { type: "send_text", text: "Done." }]);
  await inboundRule("Answer, then snooze", "on holiday", [
    { type: "send_text", text: "Enjoy, we will write later." },
    { type: "snooze", minutes: 600 },
  ]);
  // Two rules on one message, in this order: the second's close finds it closed by the first.
  await inboundRule("Cancels", "cancel my order", [{ type: "close" }]);
  await inboundRule("Cancel answer", "cancel my order", [{ type: "send_text", text: "Cancelled." }, { type: "close" }]);
  await inboundRule("Later", "call me tomorrow", [{ type: "snooze", minutes: 600 }]);
});

describe("a rule's close", () => {
  it("resolves the period: the due times end, no breach comes, the next message opens a new period", async () => {
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello");
    await contactWrites(t.sender, contact, "ok thanks bye");
    await work();
    const c = await conversationOf(contact);
    expect(c.status).toBe("CLOSED");
    expect(c).toMatchObject({ slaFirstResponseDueAt: null, slaResolutionDueAt: null, slaDueAt: null });
    const [period] = await periodsOf(c.id);
    expect(period?.resolvedAt).toEqual(c.closedAt);
    expect(period?.closedBy).toBe("automation");

    await timersFire(c.id);
    expect(await breachesOf(c.id)).toBe(0);

    await contactWrites(t.sender, contact, "one more thing");
    const periods = await periodsOf(c.id);
    expect(periods).toHaveLength(2);
    expect(periods[1]?.resolvedAt).toBeNull();
    const reopened = await conversationOf(contact);
    expect(reopened.slaResolutionDueAt).not.toBeNull();

    // The first period now lies three hours back: before 03:00 UTC that is yesterday (CI once ran then).
    const range = `dateFrom=${dayOf(Date.now() - 4 * HOUR)}&dateTo=${dayOf(Date.now())}`;
    const res = await call("GET", `/api/v3/reports/support?${range}&groupBy=member&timeZone=UTC`, {
      token: t.globalToken,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.totals).toMatchObject({ conversations: 2, reopened: 1, resolved: 1 });
    const automation = res.body.data.groups.find((g: { key: string }) => g.key === "automation");
    expect(automation).toMatchObject({ resolved: 1 });
    // Each key of the report by member is a filter too: the rule's close, and the periods nobody answered.
    const filtered = async (memberId: string) => {
      const r = await call("GET", `/api/v3/reports/support?${range}&timeZone=UTC&memberId=${memberId}`, {
        token: t.globalToken,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data;
    };
    const byRule = await filtered("Automation");
    expect(byRule).toMatchObject({ memberId: "automation", totals: { conversations: 0, resolved: 1 } });
    expect((await filtered("unanswered")).totals).toMatchObject({ conversations: 2, resolved: 0 });
  });
});

describe("a rule's snooze", () => {
  it("defers without resolving: the period and its due times run on, and its breach is recorded", async () => {
    const { c } = await writesThenRules("please call me tomorrow");
    expect(c.status).toBe("CLOSED");
    const [period] = await periodsOf(c.id);
    expect(period?.resolvedAt).toBeNull();
    expect(c.slaFirstResponseDueAt).not.toBeNull();
    expect(c.slaResolutionDueAt).not.toBeNull();
    await timersFire(c.id);
    expect(await breachesOf(c.id)).toBe(2);
  });
});

describe("a rule that answers and closes", () => {
  const rulesSends = async (conversationId: string) =>
    (
      await db.conversationMessage.findMany({
        where: { conversationId, direction: "outbound", sentBy: "automation" },
        select: { sentByLabel: true },
      })
    ).map((e) => e.sentByLabel);

  it.each([
    ["send_text, close", "what are your opening hours?", "Answer, then close"],
    ["close, send_text", "please unsubscribe me", "Close, then answer"],
  ])("[%s]: the answer goes out and the conversation stays closed, its period resolved", async (_, text, rule) => {
    const { contact, c } = await writesThenRules(text);
    // The send, queued by the run and sent after its close, reopened the conversation before.
    expect(await rulesSends(c.id)).toEqual([rule]);
    expect(c.status).toBe("CLOSED");
    const [period] = await periodsOf(c.id);
    expect(period?.resolvedAt).toEqual(c.closedAt);
    expect(period?.closedBy).toBe("automation");
    // The contact's next message opens it again, in a new period.
    await contactWrites(t.sender, contact, "one more question");
    expect((await conversationOf(contact)).status).toBe("OPEN");
    expect(await periodsOf(c.id)).toHaveLength(2);
  });

  it("[send_text, snooze]: the answer goes out, the conversation stays snoozed and its period runs on", async () => {
    const { c } = await writesThenRules("I am on holiday");
    expect(await rulesSends(c.id)).toEqual(["Answer, then snooze"]);
    expect(c.status).toBe("CLOSED");
    const [period] = await periodsOf(c.id);
    expect(period?.resolvedAt).toBeNull();
    // Its reopening still waits for the snooze's end, and comes then: the send left the snooze's close as it was.
    const reopen = { subjectId: c.id, kind: JOB_KINDS.reopen, status: "PENDING" as const };
    expect(await db.scheduledJob.count({ where: reopen })).toBe(1);
    await db.scheduledJob.updateMany({ where: reopen, data: { dueAt: new Date(Date.now() - 1000) } });
    await work();
    expect((await conversationOf(c.contactPhoneNumber)).status).toBe("OPEN");
  });

  it("an earlier rule closed it on the same message: the later rule's answer leaves it closed", async () => {
    const { c } = await writesThenRules("please cancel my order");
    expect(await rulesSends(c.id)).toEqual(["Cancel answer"]);
    expect(c.status).toBe("CLOSED");
    const [period] = await periodsOf(c.id);
    expect(period?.resolvedAt).toEqual(c.closedAt);
  });

  it("a late answer undoes no one's change: reopened since, it stays open; closed again by a member, it stays closed", async () => {
    const { contact, c } = await writesThenRules("opening hours?", rulesOnly);
    expect(c.status).toBe("CLOSED");
    expect(await rulesSends(c.id)).toEqual([]);
    // Before the rule's send goes, the contact writes again and a member closes the conversation.
    await contactWrites(t.sender, contact, "hello?");
    const closed = await call("POST", `/api/v3/conversations/${c.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await work();
    expect(await rulesSends(c.id)).toEqual(["Answer, then close"]);
    expect((await conversationOf(contact)).status).toBe("CLOSED");

    // Reopened by the contact before the rule's send goes: the send leaves it open.
    const other = await writesThenRules("opening hours, again?", rulesOnly);
    expect(other.c.status).toBe("CLOSED");
    await contactWrites(t.sender, other.contact, "are you there?");
    expect((await conversationOf(other.contact)).status).toBe("OPEN");
    await work();
    expect(await rulesSends(other.c.id)).toEqual(["Answer, then close"]);
    expect((await conversationOf(other.contact)).status).toBe("OPEN");
  });
});

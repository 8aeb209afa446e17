// A rule's close in the support figures (docs/reports.md "Definitions", "By member"): it
// resolves the period as a member's close does, so the SLA's due times end and no breach is
// recorded on a closed conversation, and the contact's next message opens a new period
// (`reopened`); a rule's snooze defers the conversation without resolving it.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { SLA_JOB_KIND } from "@/lib/domains/sla/timers";
import { runSlaJobs } from "@/lib/domains/sla/worker";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { runAutomationJobs } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;

const work = async () => {
  for (let i = 0; i < 10; i++) if ((await runAutomationJobs({ customerIds: [t.customer.id] })) === 0) return;
};
async function create(path: string, key: string, value: Record<string, unknown>): Promise<void> {
  const res = await call("POST", `/api/v3/${path}`, { token: t.globalToken, body: { [key]: value } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
const conversationOf = (contact: string) =>
  db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });
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
const breachesOf = (conversationId: string) => db.slaBreach.count({ where: { conversationId } });

beforeAll(async () => {
  t = await messagingCustomer();
  await create("sla-policies", "policy", {
    name: "Everyone",
    firstResponseMinutes: 60,
    resolutionMinutes: 120,
    applies: { senderIds: [], labels: [] },
  });
  await create("automations", "rule", {
    name: "Goodbyes",
    trigger: { event: "message.inbound" },
    conditions: [{ field: "message.text", op: "contains", value: "thanks bye" }],
    actions: [{ type: "close" }],
  });
  await create("automations", "rule", {
    name: "Later",
    trigger: { event: "message.inbound" },
    conditions: [{ field: "message.text", op: "contains", value: "call me tomorrow" }],
    actions: [{ type: "snooze", minutes: 600 }],
  });
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

    const today = new Date().toISOString().slice(0, 10);
    const res = await call(
      "GET",
      `/api/v3/reports/support?dateFrom=${today}&dateTo=${today}&groupBy=member&timeZone=UTC`,
      { token: t.globalToken },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.totals).toMatchObject({ conversations: 2, reopened: 1, resolved: 1 });
    const automation = res.body.data.groups.find((g: { key: string }) => g.key === "automation");
    expect(automation).toMatchObject({ resolved: 1 });
    // Each key of the report by member is a filter too: the rule's close, and the periods nobody answered.
    const filtered = async (memberId: string) => {
      const r = await call(
        "GET",
        `/api/v3/reports/support?dateFrom=${today}&dateTo=${today}&timeZone=UTC&memberId=${memberId}`,
        { token: t.globalToken },
      );
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
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "please call me tomorrow");
    await work();
    const c = await conversationOf(contact);
    expect(c.status).toBe("CLOSED");
    const [period] = await periodsOf(c.id);
    expect(period?.resolvedAt).toBeNull();
    expect(c.slaFirstResponseDueAt).not.toBeNull();
    expect(c.slaResolutionDueAt).not.toBeNull();
    await timersFire(c.id);
    expect(await breachesOf(c.id)).toBe(2);
  });
});

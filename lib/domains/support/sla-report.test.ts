// SLA breaches in the support report (docs/reports.md "SLA breaches in the report"): a fixed
// history of breaches counted by breachedAt in every group (day, week, member, sender), the
// range's edges in UTC and in another zone, a number-scoped token, isolation between accounts,
// and the dashboard's per-member table and its CSV (breaches and CSAT columns).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { supportCsv, supportDashboard } from "@/lib/domains/support/dashboard";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
type Period = { id: string; conversationId: string; senderId: string };

/** A contact writes to the sender; the conversation's (open) period, its first responder set by hand. */
async function periodOf(t: Customer, sender: Customer["sender"], firstResponder: string | null): Promise<Period> {
  const contact = uniquePhone();
  await contactWrites(sender, contact, "Help");
  const period = await db.supportPeriod.findFirstOrThrow({
    where: { customerId: t.customer.id, conversation: { contactPhoneNumber: contact } },
  });
  if (firstResponder) await db.supportPeriod.update({ where: { id: period.id }, data: { firstResponder } });
  return period;
}

/** A breach as the SLA worker records it, at a fixed time. */
function breach(t: Customer, period: Period, target: string, breachedAt: string) {
  const id = `slab_${randomBytes(8).toString("hex")}`;
  return db.slaBreach.create({
    data: {
      id,
      customerId: t.customer.id,
      senderId: period.senderId,
      conversationId: period.conversationId,
      periodId: period.id,
      policyId: "sla_test",
      target,
      key: id,
      dueAt: new Date(Date.parse(breachedAt) - 60_000),
      breachedAt: new Date(breachedAt),
    },
  });
}

const report = async (token: string, query: Record<string, string>) => {
  const res = await call("GET", "/api/v3/reports/support", { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
/** The groups that have breaches, as {key: count}. */
const breachesBy = (body: { groups: { key: string; slaBreaches: number }[] }) =>
  Object.fromEntries(body.groups.filter((g) => g.slaBreaches > 0).map((g) => [g.key, g.slaBreaches]));

const RANGE = { dateFrom: "2026-11-02", dateTo: "2026-11-10" };
let t: Customer;
let lead: string;

beforeAll(async () => {
  t = await messagingCustomer();
  lead = `lead-${uniquePhone().slice(1)}@example.com`;
  // Period A (the first sender) was answered first by the lead; period B (the other sender) by nobody.
  const a = await periodOf(t, t.sender, lead);
  const b = await periodOf(t, t.otherSender, null);
  await breach(t, a, "next_response", "2026-11-01T23:59:00Z"); // before the range in UTC; 2026-11-02 00:59 in Berlin
  await breach(t, a, "first_response", "2026-11-03T10:00:00Z");
  await breach(t, a, "resolution", "2026-11-05T12:00:00Z");
  await breach(t, b, "first_response", "2026-11-09T23:30:00Z"); // 2026-11-10 00:30 in Berlin
  await breach(t, b, "resolution", "2026-11-11T00:00:00Z"); // the midnight after the range: out
});

describe("slaBreaches in GET /reports/support", () => {
  it("counts breaches by breachedAt in each day, week, member and sender, with the totals", async () => {
    const days = await report(t.globalToken, RANGE);
    expect(days.totals.slaBreaches).toBe(3);
    expect(breachesBy(days)).toEqual({ "2026-11-03": 1, "2026-11-05": 1, "2026-11-09": 1 });

    // 2026-11-02 is a Monday.
    const weeks = await report(t.globalToken, { ...RANGE, groupBy: "week" });
    expect(weeks.totals.slaBreaches).toBe(3);
    expect(breachesBy(weeks)).toEqual({ "2026-11-02": 2, "2026-11-09": 1 });

    const members = await report(t.globalToken, { ...RANGE, groupBy: "member" });
    expect(members.totals.slaBreaches).toBe(3);
    expect(breachesBy(members)).toEqual({ [lead]: 2, unanswered: 1 });

    const senders = await report(t.globalToken, { ...RANGE, groupBy: "sender" });
    expect(senders.totals.slaBreaches).toBe(3);
    expect(breachesBy(senders)).toEqual({ [t.sender.phoneNumber]: 2, [t.otherSender.phoneNumber]: 1 });
  });

  it("the range's days are the time zone's", async () => {
    const berlin = await report(t.globalToken, { ...RANGE, timeZone: "Europe/Berlin" });
    expect(berlin.totals.slaBreaches).toBe(4);
    expect(breachesBy(berlin)).toEqual({ "2026-11-02": 1, "2026-11-03": 1, "2026-11-05": 1, "2026-11-10": 1 });
  });

  it("a number-scoped token counts its sender's breaches; another account sees none of them", async () => {
    const scoped = await report(t.scopedToken, RANGE);
    expect(scoped.senderId).toBe(t.sender.phoneNumber);
    expect(scoped.totals.slaBreaches).toBe(2);
    expect(breachesBy(scoped)).toEqual({ "2026-11-03": 1, "2026-11-05": 1 });

    const other = await messagingCustomer();
    await breach(other, await periodOf(other, other.sender, null), "first_response", "2026-11-04T08:00:00Z");
    const theirs = await report(other.globalToken, RANGE);
    expect(theirs.totals.slaBreaches).toBe(1);
    expect(breachesBy(theirs)).toEqual({ "2026-11-04": 1 });
    expect((await report(t.globalToken, RANGE)).totals.slaBreaches).toBe(3);
  });
});

describe("the dashboard's per-member table", () => {
  it("shows breaches and CSAT per member, and its CSV carries both", async () => {
    const u = await messagingCustomer();
    const email = `agent-${uniquePhone().slice(1)}@example.com`;
    const period = await periodOf(u, u.sender, email);
    const now = new Date();
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    await breach(u, period, "first_response", hourAgo);
    await breach(u, period, "resolution", hourAgo);
    // A happy answer to the survey of a conversation the member closed.
    await db.csatSurvey.create({
      data: {
        id: `csat_${randomBytes(8).toString("hex")}`,
        customerId: u.customer.id,
        senderId: period.senderId,
        conversationId: period.conversationId,
        periodId: period.id,
        memberEmail: email,
        closedAt: new Date(hourAgo),
        status: "SENT",
        score: 3,
        respondedAt: new Date(hourAgo),
      },
    });
    const p = memberPrincipal(u.customer.id, { role: "admin" });

    const page = await supportDashboard(p, 7, now);
    expect(page.totals.slaBreaches).toBe(2);
    expect(page.byMember.find((g) => g.key === email)).toMatchObject({
      slaBreaches: 2,
      csat: { responses: 1, score: 100 },
    });

    const { csv } = await supportCsv(p, "members", 7, now);
    const [header, ...rows] = csv.trim().split("\n");
    const columns = header?.split(",") ?? [];
    const row = rows.map((l) => l.split(",")).find((cells) => cells[0] === email) ?? [];
    const cell = (name: string) => row[columns.indexOf(name)];
    expect(cell("slaBreaches")).toBe("2");
    expect(cell("csatResponses")).toBe("1");
    expect(cell("csatHappyPercent")).toBe("100");
  });
});

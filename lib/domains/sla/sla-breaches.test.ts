// SLA due times and breaches (docs/reports.md "SLA policies"): the policy a conversation gets
// (first that applies, again when its labels change), the due times its API object shows, and
// the guarantee that a breach is recorded and conversation.sla_breached emitted once per
// target, under repeated timers, two workers at once and a worker that died after its commit.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addBusinessSeconds } from "@/lib/domains/business-hours/hours";
import { inboxPage } from "@/lib/domains/conversations/inbox";
import { claimDueJobs, scheduleJobs } from "@/lib/domains/schedule/jobs";
import { recordApiAnswers } from "@/test/api-answers";
import { backdateWait as backdate, contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { handleSlaJob, SLA_JOB_KIND } from "./timers";
import { runSlaJobs } from "./worker";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;

const work = async (customer = t) => {
  for (let i = 0; i < 10; i++) if ((await runSlaJobs({ customerIds: [customer.customer.id] })) === 0) return;
};
async function createPolicy(policy: Record<string, unknown>, customer = t): Promise<string> {
  const res = await call("POST", "/api/v3/sla-policies", { token: customer.globalToken, body: { policy } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.slaUid as string;
}
const removePolicy = (uid: string, customer = t) =>
  call("DELETE", `/api/v3/sla-policies/${uid}`, { token: customer.globalToken });
const conversationOf = (contact: string, customer = t) =>
  db.conversation.findFirstOrThrow({ where: { senderId: customer.sender.id, contactPhoneNumber: contact } });
async function slaOf(conversationId: string, customer = t) {
  const res = await call("GET", `/api/v3/conversations/${conversationId}`, { token: customer.globalToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.sla;
}
/** Time passes: the conversation's SLA timers are due now. */
const elapse = (subjectId: string) =>
  db.scheduledJob.updateMany({
    where: { subjectId, kind: SLA_JOB_KIND, status: "PENDING" },
    data: { dueAt: new Date(Date.now() - 1000) },
  });
const breachEvents = (conversationUid: string) =>
  db.webhookEvent.findMany({
    where: {
      customerId: t.customer.id,
      type: "conversation.sla_breached",
      payload: { path: ["data", "conversationUid"], equals: conversationUid },
    },
  });

beforeAll(async () => {
  t = await messagingCustomer();
});

describe("due times", () => {
  it("an inbound gets the first policy that applies; the API object shows its due times; a reply meets the first response", async () => {
    const uid = await createPolicy({ name: "std", firstResponseMinutes: 15, resolutionMinutes: 480 });
    const contact = uniquePhone();
    const before = Date.now();
    await contactWrites(t.sender, contact, "help");
    const c = await conversationOf(contact);
    const sla = await slaOf(c.id);
    expect(sla).toMatchObject({ policyUid: uid, nextResponseDueAt: null, breaches: [] });
    const first = Date.parse(sla.firstResponseDueAt);
    expect(first).toBeGreaterThanOrEqual(before + 15 * 60_000 - 2_000);
    expect(first).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    expect(Date.parse(sla.resolutionDueAt) - first).toBe(465 * 60_000);
    // A durable timer for the soonest, not a poll.
    const jobs = await db.scheduledJob.findMany({ where: { subjectId: c.id, kind: SLA_JOB_KIND } });
    expect(jobs.map((j) => [j.status, j.dueAt.toISOString()])).toEqual([["PENDING", sla.firstResponseDueAt]]);
    expect(c.slaDueAt?.toISOString()).toBe(sla.firstResponseDueAt);

    const reply = await call("POST", `/api/v3/conversations/${c.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "Here" } } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    const after = await slaOf(c.id);
    expect(after).toMatchObject({ firstResponseDueAt: null, resolutionDueAt: sla.resolutionDueAt, breaches: [] });
    expect((await conversationOf(contact)).slaDueAt?.toISOString()).toBe(sla.resolutionDueAt);
    // The timer runs when due and finds the target met: no breach.
    await elapse(c.id);
    await work();
    expect(await db.slaBreach.count({ where: { conversationId: c.id } })).toBe(0);

    // The contact writes again: a next response is due only with a target for it.
    await contactWrites(t.sender, contact, "and?");
    expect((await slaOf(c.id)).nextResponseDueAt).toBeNull();
    await removePolicy(uid);
    expect(await slaOf(c.id)).toBeNull();
  });

  it("labels choose the policy again: the account's order decides; no policy that applies is sla null", async () => {
    await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "VIP" } } });
    const vip = await createPolicy({ name: "vip", firstResponseMinutes: 5, applies: { labels: ["vip"] } });
    const other = await createPolicy({
      name: "other sender",
      firstResponseMinutes: 60,
      applies: { senderIds: [t.otherSender.phoneNumber] },
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hi");
    const c = await conversationOf(contact);
    expect(await slaOf(c.id)).toBeNull();
    const labelled = await call("POST", `/api/v3/conversations/${c.id}/labels`, {
      token: t.globalToken,
      body: { add: ["VIP"] },
    });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    const sla = await slaOf(c.id);
    expect(sla.policyUid).toBe(vip);
    expect(
      Date.parse(sla.firstResponseDueAt) -
        Date.parse(
          (await db.supportPeriod.findFirstOrThrow({ where: { conversationId: c.id } })).waitingSince?.toISOString() ??
            "",
        ),
    ).toBe(5 * 60_000);
    await call("POST", `/api/v3/conversations/${c.id}/labels`, { token: t.globalToken, body: { remove: ["VIP"] } });
    expect(await slaOf(c.id)).toBeNull();
    await removePolicy(vip);
    await removePolicy(other);
  });

  it("deleting the label a policy applies by chooses the policy again: no due times, no breach", async () => {
    const made = await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "Gold" } } });
    const gold = await createPolicy({ name: "gold", firstResponseMinutes: 5, applies: { labels: ["GOLD"] } });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hi");
    const c = await conversationOf(contact);
    await call("POST", `/api/v3/conversations/${c.id}/labels`, { token: t.globalToken, body: { add: ["Gold"] } });
    expect((await slaOf(c.id)).policyUid).toBe(gold);
    expect(await db.scheduledJob.count({ where: { subjectId: c.id, kind: SLA_JOB_KIND, status: "PENDING" } })).toBe(1);

    const deleted = await call("DELETE", `/api/v3/labels/${made.body.data.labelUid}`, { token: t.globalToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await slaOf(c.id)).toBeNull();
    // Its five-minute timer comes due and records nothing: the conversation holds no policy.
    await elapse(c.id);
    await work();
    expect(await breachEvents(c.id)).toHaveLength(0);
    expect(await db.slaBreach.count({ where: { conversationId: c.id } })).toBe(0);
    await removePolicy(gold);
  });

  it("business hours only: the due time counts open hours", async () => {
    const hours = {
      timezone: "UTC",
      days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "10:00" })),
      holidays: [],
    };
    const set = await call("POST", "/api/v3/settings/business-hours", {
      token: t.globalToken,
      body: { businessHours: hours },
    });
    expect(set.status).toBe(200);
    const uid = await createPolicy({ name: "office", firstResponseMinutes: 90, businessHoursOnly: true });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hi");
    const c = await conversationOf(contact);
    const period = await db.supportPeriod.findFirstOrThrow({ where: { conversationId: c.id } });
    const expected = addBusinessSeconds(period.waitingSince as Date, 90 * 60, hours);
    expect((await slaOf(c.id)).firstResponseDueAt).toBe(expected?.toISOString());
    // 90 open minutes of one open hour a day: never the same day.
    expect((expected as Date).getTime() - Date.now()).toBeGreaterThan(60 * 60_000);
    await removePolicy(uid);
    await call("POST", "/api/v3/settings/business-hours", { token: t.globalToken, body: { businessHours: null } });
  });

  it("another account's policies never apply", async () => {
    const other = await messagingCustomer();
    const uid = await createPolicy({ name: "mine", firstResponseMinutes: 5 });
    const contact = uniquePhone();
    await contactWrites(other.sender, contact, "hi");
    const c = await conversationOf(contact, other);
    expect(await slaOf(c.id, other)).toBeNull();
    expect(await db.scheduledJob.count({ where: { subjectId: c.id, kind: SLA_JOB_KIND } })).toBe(0);
    await removePolicy(uid);
  });
});

describe("the inbox's order", () => {
  it("due soonest: the soonest due time first, conversations without one last", async () => {
    const c2 = await messagingCustomer();
    const none = uniquePhone();
    await contactWrites(c2.sender, none, "before any policy");
    await createPolicy({ name: "hour", firstResponseMinutes: 60 }, c2);
    const early = uniquePhone();
    const late = uniquePhone();
    await contactWrites(c2.sender, early, "first");
    // The provider stamps a message in whole seconds: the second one in the next second, so
    // the two waits (and due times) differ rather than tie.
    await new Promise((r) => setTimeout(r, 1_020 - (Date.now() % 1_000)));
    await contactWrites(c2.sender, late, "second");
    const owner = memberPrincipal(c2.customer.id, { role: "owner" });
    const order = async (o: "inbox" | "due") =>
      (await inboxPage(owner, undefined, { page: 1, limit: 50, unread: false }, o)).conversations.map(
        (c) => c.contactPhoneNumber,
      );
    expect(await order("due")).toEqual([early, late, none]);
    expect(await order("inbox")).toEqual([late, early, none]);
  });
});

describe("a breach is recorded and emitted once", () => {
  it("due with no reply: one breach row and one event, whatever runs again; a restart or a second worker adds nothing", async () => {
    const uid = await createPolicy({ name: "fast", firstResponseMinutes: 1 });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello?");
    const c = await conversationOf(contact);
    await work();
    expect(await db.slaBreach.count({ where: { conversationId: c.id } })).toBe(0); // not due yet
    await elapse(c.id);
    // Both the due timer and an extra one of the same conversation, claimed by two workers at once.
    await db.$transaction((tx) =>
      scheduleJobs(tx, [
        {
          customerId: t.customer.id,
          kind: SLA_JOB_KIND,
          key: `sla:${c.id}:extra`,
          subjectId: c.id,
          dueAt: new Date(Date.now() - 1000),
          payload: {},
        },
      ]),
    );
    await backdate(c.id, 2);
    await Promise.all([runSlaJobs({ customerIds: [t.customer.id] }), runSlaJobs({ customerIds: [t.customer.id] })]);
    await work();
    const breaches = await db.slaBreach.findMany({ where: { conversationId: c.id } });
    expect(breaches.map((b) => b.target)).toEqual(["first_response"]);
    const events = await breachEvents(c.id);
    expect(events).toHaveLength(1);
    const data = (events[0]?.payload as { data?: Record<string, string> } | undefined)?.data ?? {};
    expect(data).toEqual({
      conversationUid: c.id,
      target: "first_response",
      dueAt: breaches[0]?.dueAt.toISOString(),
      breachedAt: breaches[0]?.breachedAt.toISOString(),
      policyUid: uid,
    });
    expect(Date.parse(data.breachedAt as string)).toBeGreaterThanOrEqual(Date.parse(data.dueAt as string));
    expect((await slaOf(c.id)).breaches).toEqual(["first_response"]);

    // A worker that committed the breach and died before finishing its job: the job runs again.
    const done = await db.scheduledJob.findMany({ where: { subjectId: c.id, kind: SLA_JOB_KIND } });
    await db.scheduledJob.updateMany({
      where: { id: { in: done.map((j) => j.id) } },
      data: { status: "PENDING", lockedUntil: null, dueAt: new Date(Date.now() - 1000) },
    });
    await work();
    // Three handlers at once on copies of one claimed job (no lease between them).
    const [claimed] = await claimDueJobs([SLA_JOB_KIND], 1, 60_000, [t.customer.id]).then(async (j) =>
      j.length > 0
        ? j
        : [
            {
              id: "x",
              customerId: t.customer.id,
              kind: SLA_JOB_KIND,
              key: "k",
              subjectId: c.id,
              dueAt: new Date(),
              payload: {},
              attempts: 1,
              lease: "",
            },
          ],
    );
    if (claimed) await Promise.all([handleSlaJob(claimed), handleSlaJob(claimed), handleSlaJob(claimed)]);
    expect(await db.slaBreach.count({ where: { conversationId: c.id } })).toBe(1);
    expect(await breachEvents(c.id)).toHaveLength(1);
    await removePolicy(uid);
  });

  it("a policy that starts to apply after its due time has passed records the breach at once, once", async () => {
    await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "Urgent" } } });
    const uid = await createPolicy({ name: "urgent", firstResponseMinutes: 30, applies: { labels: ["Urgent"] } });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "still waiting");
    const c = await conversationOf(contact);
    await backdate(c.id, 120); // waiting two hours when someone marks it urgent
    const labelled = await call("POST", `/api/v3/conversations/${c.id}/labels`, {
      token: t.globalToken,
      body: { add: ["Urgent"] },
    });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    expect(Date.parse((await slaOf(c.id)).firstResponseDueAt)).toBeLessThan(Date.now());
    await work();
    await work();
    const breaches = await db.slaBreach.findMany({ where: { conversationId: c.id } });
    expect(breaches.map((b) => b.target)).toEqual(["first_response"]);
    expect(await breachEvents(c.id)).toHaveLength(1);
    // Labelled again (the same due time computed again): nothing more.
    await call("POST", `/api/v3/conversations/${c.id}/labels`, { token: t.globalToken, body: { remove: ["Urgent"] } });
    await call("POST", `/api/v3/conversations/${c.id}/labels`, { token: t.globalToken, body: { add: ["Urgent"] } });
    await work();
    expect(await db.slaBreach.count({ where: { conversationId: c.id } })).toBe(1);
    expect(await breachEvents(c.id)).toHaveLength(1);
    await removePolicy(uid);
  });

  it("a reply after the due time, before the timer ran, is a breach too; a next response's breach is its own", async () => {
    const uid = await createPolicy({ name: "late", firstResponseMinutes: 1, nextResponseMinutes: 1 });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello?");
    const c = await conversationOf(contact);
    await backdate(c.id, 5);
    const reply = await call("POST", `/api/v3/conversations/${c.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "Sorry" } } },
    });
    expect(reply.status).toBeLessThan(300);
    await elapse(c.id);
    await work();
    expect((await db.slaBreach.findMany({ where: { conversationId: c.id } })).map((b) => b.target)).toEqual([
      "first_response",
    ]);
    // The contact writes again and waits past the next response's due time.
    await contactWrites(t.sender, contact, "still there?");
    const sla = await slaOf(c.id);
    expect(sla.nextResponseDueAt).not.toBeNull();
    await db.supportPeriod.updateMany({
      where: { conversationId: c.id, resolvedAt: null },
      data: { waitingSince: new Date(Date.now() - 5 * 60_000) },
    });
    await elapse(c.id);
    await work();
    await work();
    const targets = (await db.slaBreach.findMany({ where: { conversationId: c.id } })).map((b) => b.target).sort();
    expect(targets).toEqual(["first_response", "next_response"]);
    expect(await breachEvents(c.id)).toHaveLength(2);
    expect((await slaOf(c.id)).breaches).toEqual(["first_response", "next_response"]);
    await removePolicy(uid);
  });
});

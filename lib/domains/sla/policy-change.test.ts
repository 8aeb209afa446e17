// A policy change reaches the open conversations (docs/reports.md "When a policy changes"):
// the edit's request writes one job, the SLA worker moves the due times and timers of the
// policy's open conversations (or chooses every open conversation's policy again after a
// change of applies or position) in batches; an old timer records nothing; replies before the
// change are not judged again by the new terms; recorded breaches stay; other accounts are
// untouched.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addBusinessSeconds } from "@/lib/domains/business-hours/hours";
import { claimDueJobs, finishJob } from "@/lib/domains/schedule/jobs";
import { recordApiAnswers } from "@/test/api-answers";
import { backdateWait as backdate, contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { handlePolicyChangeJob, SLA_POLICY_JOB_KIND } from "./policy-change";
import { SLA_JOB_KIND } from "./timers";
import { runSlaJobs } from "./worker";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

const work = async (t: Customer) => {
  for (let i = 0; i < 20; i++) if ((await runSlaJobs({ customerIds: [t.customer.id] })) === 0) return;
};
async function createPolicy(t: Customer, policy: Record<string, unknown>): Promise<string> {
  const res = await call("POST", "/api/v3/sla-policies", { token: t.globalToken, body: { policy } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.slaUid as string;
}
async function editPolicy(t: Customer, uid: string, policy: Record<string, unknown>) {
  const res = await call("POST", `/api/v3/sla-policies/${uid}`, { token: t.globalToken, body: { policy } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
async function reply(t: Customer, conversationId: string) {
  const res = await call("POST", `/api/v3/conversations/${conversationId}/messages`, {
    token: t.globalToken,
    body: { message: { type: "text", text: { body: "Here" } } },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}
async function opened(t: Customer, contact = uniquePhone()) {
  await contactWrites(t.sender, contact, "help");
  return db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });
}
async function slaOf(t: Customer, conversationId: string) {
  const res = await call("GET", `/api/v3/conversations/${conversationId}`, { token: t.globalToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.sla;
}
const waitOf = async (conversationId: string) =>
  (await db.supportPeriod.findFirstOrThrow({ where: { conversationId, resolvedAt: null } })).waitingSince as Date;
const timers = (subjectId: string) =>
  db.scheduledJob.findMany({ where: { subjectId, kind: SLA_JOB_KIND }, orderBy: { dueAt: "asc" } });
const breaches = async (conversationId: string) =>
  (await db.slaBreach.findMany({ where: { conversationId }, orderBy: { target: "asc" } })).map((b) => b.target);

describe("an edit moves the open conversations' due times and timers", () => {
  it("new targets: the due time and its timer move; the old timer is deleted and, run anyway, records nothing; others untouched", async () => {
    const t = await messagingCustomer();
    const other = await messagingCustomer();
    const uid = await createPolicy(t, { name: "fast", firstResponseMinutes: 1, resolutionMinutes: 600 });
    const theirs = await createPolicy(other, { name: "fast", firstResponseMinutes: 1 });
    const c = await opened(t);
    const closed = await opened(t);
    const close = await call("POST", `/api/v3/conversations/${closed.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    const c2 = await opened(other);
    const before = await slaOf(t, c.id);
    const theirsBefore = await slaOf(other, c2.id);
    const [oldTimer] = await timers(c.id);
    expect(oldTimer?.dueAt.toISOString()).toBe(before.firstResponseDueAt);

    await editPolicy(t, uid, { firstResponseMinutes: 60 });
    // The request wrote one job; the conversations move when the worker runs it.
    expect(await db.scheduledJob.count({ where: { subjectId: uid, kind: SLA_POLICY_JOB_KIND } })).toBe(1);
    expect((await slaOf(t, c.id)).firstResponseDueAt).toBe(before.firstResponseDueAt);
    await work(t);

    const wait = await waitOf(c.id);
    const after = await slaOf(t, c.id);
    expect(after).toMatchObject({ policyUid: uid, resolutionDueAt: before.resolutionDueAt, breaches: [] });
    expect(Date.parse(after.firstResponseDueAt) - wait.getTime()).toBe(60 * 60_000);
    const row = await db.conversation.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.slaDueAt?.toISOString()).toBe(after.firstResponseDueAt);
    const moved = await timers(c.id);
    expect(moved.map((j) => [j.status, j.dueAt.toISOString()])).toEqual([["PENDING", after.firstResponseDueAt]]);

    // The contact has now waited past the old due time; the old timer runs anyway (a worker
    // had claimed it as the edit landed): nothing.
    await backdate(c.id, 5);
    if (!oldTimer) throw new Error("no timer before the edit");
    await db.scheduledJob.create({
      data: { ...oldTimer, payload: {}, status: "PENDING", dueAt: new Date(Date.now() - 1000) },
    });
    await work(t);
    expect(await breaches(c.id)).toEqual([]);
    expect((await slaOf(t, c.id)).breaches).toEqual([]);

    // The other account's conversation, policy and timer are as they were.
    expect(await slaOf(other, c2.id)).toEqual(theirsBefore);
    expect((await timers(c2.id)).map((j) => [j.status, j.dueAt.toISOString()])).toEqual([
      ["PENDING", theirsBefore.firstResponseDueAt],
    ]);
    expect(theirsBefore.policyUid).toBe(theirs);
    // A closed conversation has nothing due, before and after.
    expect(await slaOf(t, closed.id)).toMatchObject({ firstResponseDueAt: null, resolutionDueAt: null });
  });

  it("a move in the order chooses every open conversation's policy again; a renamed policy moves nothing", async () => {
    const t = await messagingCustomer();
    const slow = await createPolicy(t, { name: "slow", firstResponseMinutes: 60 });
    const quick = await createPolicy(t, { name: "quick", firstResponseMinutes: 5 });
    const c = await opened(t);
    expect((await slaOf(t, c.id)).policyUid).toBe(slow);
    await editPolicy(t, slow, { name: "slower" });
    expect(await db.scheduledJob.count({ where: { kind: SLA_POLICY_JOB_KIND, customerId: t.customer.id } })).toBe(0);

    await editPolicy(t, quick, { position: 0 });
    await work(t);
    const sla = await slaOf(t, c.id);
    expect(sla.policyUid).toBe(quick);
    expect(Date.parse(sla.firstResponseDueAt) - (await waitOf(c.id)).getTime()).toBe(5 * 60_000);
    expect((await timers(c.id)).filter((j) => j.status === "PENDING").map((j) => j.dueAt.toISOString())).toEqual([
      sla.firstResponseDueAt,
    ]);

    // applies narrowed to a label the conversation lacks: the next policy that applies.
    await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "vip" } } });
    await editPolicy(t, quick, { applies: { labels: ["vip"] } });
    await work(t);
    expect((await slaOf(t, c.id)).policyUid).toBe(slow);
  });

  it("an edit undone (30, 60, then 30 minutes again) leaves the conversation the 30-minute timer, which records its breach", async () => {
    const t = await messagingCustomer();
    const uid = await createPolicy(t, { name: "std", firstResponseMinutes: 30 });
    const c = await opened(t);
    const first = await slaOf(t, c.id);
    await editPolicy(t, uid, { firstResponseMinutes: 60 });
    await work(t);
    await editPolicy(t, uid, { firstResponseMinutes: 30 });
    await work(t);
    expect((await slaOf(t, c.id)).firstResponseDueAt).toBe(first.firstResponseDueAt);
    const pending = (await timers(c.id)).filter((j) => j.status === "PENDING");
    expect(pending.map((j) => j.dueAt.toISOString())).toEqual([first.firstResponseDueAt]);
    // Its due time comes: the breach is recorded by that timer.
    await backdate(c.id, 31);
    await db.scheduledJob.updateMany({ where: { id: pending[0]?.id }, data: { dueAt: new Date(Date.now() - 1000) } });
    await work(t);
    expect(await breaches(c.id)).toEqual(["first_response"]);
  });

  it("a re-choice reaches only the account's own conversations", async () => {
    const t = await messagingCustomer();
    const other = await messagingCustomer();
    const slow = await createPolicy(t, { name: "slow", firstResponseMinutes: 60 });
    const quick = await createPolicy(t, { name: "quick", firstResponseMinutes: 5 });
    const theirs = await createPolicy(other, { name: "theirs", firstResponseMinutes: 60 });
    const c = await opened(t);
    const c2 = await opened(other);
    // A due time of theirs no walk would write: a batch that strayed into their account would
    // recompute it.
    const sentinel = new Date(Date.now() + 7 * 86_400_000);
    await db.conversation.update({ where: { id: c2.id }, data: { slaFirstResponseDueAt: sentinel } });
    const theirsBefore = await slaOf(other, c2.id);
    expect(theirsBefore.firstResponseDueAt).toBe(sentinel.toISOString());
    const theirTimers = (await timers(c2.id)).map((j) => [j.id, j.status, j.dueAt.toISOString()]);
    expect((await slaOf(t, c.id)).policyUid).toBe(slow);
    await editPolicy(t, quick, { position: 0 });
    // Every SLA job due now, whoever's: the change's batch must keep to its own account.
    for (let i = 0; i < 20; i++)
      if ((await runSlaJobs({ customerIds: [t.customer.id, other.customer.id] })) === 0) break;
    expect((await slaOf(t, c.id)).policyUid).toBe(quick);
    expect(await slaOf(other, c2.id)).toEqual(theirsBefore);
    expect(theirsBefore.policyUid).toBe(theirs);
    expect((await timers(c2.id)).map((j) => [j.id, j.status, j.dueAt.toISOString()])).toEqual(theirTimers);
  });

  it("walks many conversations in batches, from where the last batch ended", async () => {
    const t = await messagingCustomer();
    const uid = await createPolicy(t, { name: "std", firstResponseMinutes: 30 });
    const list = [];
    for (let i = 0; i < 5; i++) list.push(await opened(t));
    await editPolicy(t, uid, { firstResponseMinutes: 45 });
    let passes = 0;
    for (; passes < 10; passes++) {
      const [job] = await claimDueJobs([SLA_POLICY_JOB_KIND], 1, 60_000, [t.customer.id]);
      if (!job) break;
      await finishJob(job, await handlePolicyChangeJob(job, 2));
    }
    expect(passes).toBe(3); // 2 + 2 + 1
    for (const c of list) {
      const sla = await slaOf(t, c.id);
      expect(Date.parse(sla.firstResponseDueAt) - (await waitOf(c.id)).getTime()).toBe(45 * 60_000);
    }
  });
});

describe("breaches across an edit", () => {
  it("a conversation closed before its late timer ran keeps the old terms' breach", async () => {
    const t = await messagingCustomer();
    const uid = await createPolicy(t, { name: "fast", firstResponseMinutes: 1 });
    const c = await opened(t);
    await backdate(c.id, 5);
    await reply(t, c.id); // after 5 minutes: late for 1
    const close = await call("POST", `/api/v3/conversations/${c.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    // Its timer came due and has not run (a worker behind) when the policy is loosened.
    await db.scheduledJob.updateMany({
      where: { subjectId: c.id, kind: SLA_JOB_KIND, status: "PENDING" },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    expect(await breaches(c.id)).toEqual([]);
    await editPolicy(t, uid, { firstResponseMinutes: 60 });
    await work(t);
    expect(await breaches(c.id)).toEqual(["first_response"]);
  });

  it("a stricter edit does not turn an earlier in-time reply into a breach; a reply after it is judged by the new target", async () => {
    const t = await messagingCustomer();
    const uid = await createPolicy(t, { name: "std", firstResponseMinutes: 30, nextResponseMinutes: 30 });
    const c = await opened(t);
    await backdate(c.id, 20);
    await reply(t, c.id); // 20 minutes: in time for 30
    await editPolicy(t, uid, { firstResponseMinutes: 10, nextResponseMinutes: 10 });
    await work(t);
    // The contact writes again and waits 15 minutes: late for the new 10.
    await contactWrites(t.sender, c.contactPhoneNumber, "and?");
    await db.supportPeriod.updateMany({
      where: { conversationId: c.id, resolvedAt: null },
      data: { waitingSince: new Date(Date.now() - 15 * 60_000) },
    });
    await reply(t, c.id);
    await db.scheduledJob.updateMany({
      where: { subjectId: c.id, kind: SLA_JOB_KIND, status: "PENDING" },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    await work(t);
    expect(await breaches(c.id)).toEqual(["next_response"]);
  });

  it("a looser edit keeps recorded breaches, and records the old terms' breach a late worker had not yet", async () => {
    const t = await messagingCustomer();
    const uid = await createPolicy(t, { name: "fast", firstResponseMinutes: 1 });
    const recorded = await opened(t);
    const pending = await opened(t);
    const fresh = await opened(t);
    await backdate(recorded.id, 5);
    await db.scheduledJob.updateMany({
      where: { subjectId: recorded.id, kind: SLA_JOB_KIND },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    await work(t);
    expect(await breaches(recorded.id)).toEqual(["first_response"]);
    // Past its due time when the policy is loosened, its timer not run yet (a worker behind).
    const waited = await backdate(pending.id, 5);

    await editPolicy(t, uid, { firstResponseMinutes: 60 });
    await work(t);
    expect(await breaches(recorded.id)).toEqual(["first_response"]);
    expect((await slaOf(t, recorded.id)).breaches).toEqual(["first_response"]);
    const late = await db.slaBreach.findMany({ where: { conversationId: pending.id } });
    expect(late.map((b) => [b.target, b.dueAt.getTime()])).toEqual([["first_response", waited.getTime() + 60_000]]);
    expect(
      await db.webhookEvent.count({
        where: {
          customerId: t.customer.id,
          type: "conversation.sla_breached",
          payload: { path: ["data", "conversationUid"], equals: pending.id },
        },
      }),
    ).toBe(1);
    // Waiting one minute less than its old target at the edit: the new target only.
    expect(await breaches(fresh.id)).toEqual([]);
    expect(Date.parse((await slaOf(t, fresh.id)).firstResponseDueAt) - (await waitOf(fresh.id)).getTime()).toBe(
      60 * 60_000,
    );
  });
});

describe("a new or deleted policy reaches the open conversations", () => {
  async function label(t: Customer, conversationId: string, name: string) {
    await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name } } });
    const res = await call("POST", `/api/v3/conversations/${conversationId}/labels`, {
      token: t.globalToken,
      body: { add: [name] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const pending = async (conversationId: string) =>
    (await timers(conversationId)).filter((j) => j.status === "PENDING").map((j) => j.dueAt.toISOString());

  it("a new policy applies to the open conversations it matches, due from their own waits' starts", async () => {
    const t = await messagingCustomer();
    const other = await messagingCustomer();
    await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "vip" } } });
    await createPolicy(t, { name: "vip", firstResponseMinutes: 5, applies: { labels: ["vip"] } });
    const plain = await opened(t);
    const late = await opened(t);
    const vip = await opened(t);
    await label(t, vip.id, "VIP");
    const closed = await opened(t);
    await call("POST", `/api/v3/conversations/${closed.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    const theirs = await opened(other);
    const waited = await backdate(plain.id, 20);
    const lateWait = await backdate(late.id, 90);
    const vipBefore = await slaOf(t, vip.id);
    expect(await slaOf(t, plain.id)).toBeNull();

    const uid = await createPolicy(t, { name: "everyone", firstResponseMinutes: 60, resolutionMinutes: 600 });
    expect(await db.scheduledJob.count({ where: { subjectId: uid, kind: SLA_POLICY_JOB_KIND } })).toBe(1);
    await work(t);

    // Due from the wait's start (20 minutes ago), not from the policy's creation.
    const sla = await slaOf(t, plain.id);
    expect(sla).toMatchObject({ policyUid: uid, breaches: [] });
    expect(Date.parse(sla.firstResponseDueAt)).toBe(waited.getTime() + 60 * 60_000);
    expect(Date.parse(sla.resolutionDueAt)).toBe(waited.getTime() + 600 * 60_000);
    expect(await pending(plain.id)).toEqual([sla.firstResponseDueAt]);
    // Waiting 90 minutes for a 60-minute target: breached when the walk reaches it, at the due time it had.
    const missed = await db.slaBreach.findMany({ where: { conversationId: late.id } });
    expect(missed.map((b) => [b.target, b.policyId, b.dueAt.getTime()])).toEqual([
      ["first_response", uid, lateWait.getTime() + 60 * 60_000],
    ]);
    // The first policy that applies stays; a closed conversation and another account get nothing.
    expect(await slaOf(t, vip.id)).toEqual(vipBefore);
    expect(await slaOf(t, closed.id)).toBeNull();
    expect(await slaOf(other, theirs.id)).toBeNull();
    expect(await timers(theirs.id)).toEqual([]);
  });

  /** An account with a policy for all ("first", to be deleted) and a later one for VIPs, and three open conversations, one a VIP's. */
  async function policyToDelete() {
    const t = await messagingCustomer();
    const first = await createPolicy(t, { name: "all", firstResponseMinutes: 10 });
    await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "vip" } } });
    const vipPolicy = await createPolicy(t, { name: "vip", firstResponseMinutes: 45, applies: { labels: ["vip"] } });
    const plain = await opened(t);
    const vip = await opened(t);
    await label(t, vip.id, "VIP");
    const overdue = await opened(t);
    return { t, first, vipPolicy, plain, vip, overdue };
  }

  it("a deleted policy's timers go; the next policy that applies takes over, due from the wait's start, or none", async () => {
    const { t, first, vipPolicy, plain, vip, overdue } = await policyToDelete();
    expect((await slaOf(t, vip.id)).policyUid).toBe(first);
    const vipWait = await backdate(vip.id, 20);
    // Past its 10 minutes when the policy goes, its timer due and not run (a worker behind).
    const overdueWait = await backdate(overdue.id, 15);
    await db.scheduledJob.updateMany({
      where: { subjectId: overdue.id, kind: SLA_JOB_KIND, status: "PENDING" },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    expect(await pending(plain.id)).toHaveLength(1);

    const res = await call("DELETE", `/api/v3/sla-policies/${first}`, { token: t.globalToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // At once: off its conversations, its timers deleted, the breach its terms held recorded.
    for (const c of [plain, vip, overdue]) {
      expect(await slaOf(t, c.id)).toBeNull();
      expect(await pending(c.id)).toEqual([]);
    }
    const missed = await db.slaBreach.findMany({ where: { conversationId: overdue.id } });
    expect(missed.map((b) => [b.target, b.policyId, b.dueAt.getTime()])).toEqual([
      ["first_response", first, overdueWait.getTime() + 10 * 60_000],
    ]);

    await work(t);
    const sla = await slaOf(t, vip.id);
    expect(sla).toMatchObject({ policyUid: vipPolicy, breaches: [] });
    expect(Date.parse(sla.firstResponseDueAt)).toBe(vipWait.getTime() + 45 * 60_000);
    expect(await pending(vip.id)).toEqual([sla.firstResponseDueAt]);
    expect(await slaOf(t, plain.id)).toBeNull();
    expect(await pending(plain.id)).toEqual([]);
    expect(await breaches(overdue.id)).toEqual(["first_response"]);
  });

  it("a deleted policy's timers that run anyway (claimed as the delete landed) record nothing and emit no conversation.sla_breached", async () => {
    const { t, first, vipPolicy, plain, vip, overdue } = await policyToDelete();
    for (const c of [plain, vip]) await backdate(c.id, 5);
    // Past its 10 minutes at the delete, its timer due: the delete records that breach, once.
    await backdate(overdue.id, 15);
    await db.scheduledJob.updateMany({
      where: { subjectId: overdue.id, kind: SLA_JOB_KIND, status: "PENDING" },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    // A worker holds every one of the policy's timers as the delete lands: the delete cannot
    // delete a claimed timer, so they survive it and the walk.
    const held = await db.scheduledJob.findMany({
      where: { subjectId: { in: [plain.id, vip.id, overdue.id] }, kind: SLA_JOB_KIND, status: "PENDING" },
    });
    expect(held).toHaveLength(3);
    await db.scheduledJob.updateMany({
      where: { id: { in: held.map((j) => j.id) } },
      data: { lockedUntil: new Date(Date.now() + 60_000) },
    });

    const res = await call("DELETE", `/api/v3/sla-policies/${first}`, { token: t.globalToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await work(t);
    expect((await slaOf(t, vip.id)).policyUid).toBe(vipPolicy);
    expect(await db.scheduledJob.count({ where: { id: { in: held.map((j) => j.id) }, status: "PENDING" } })).toBe(3);

    // The contacts have now waited past the deleted policy's 10 minutes (not the vip's 45);
    // the worker's claim goes on and the timers run: nothing more is recorded or announced.
    for (const c of [plain, vip]) await backdate(c.id, 20);
    await db.scheduledJob.updateMany({
      where: { id: { in: held.map((j) => j.id) } },
      data: { lockedUntil: null, dueAt: new Date(Date.now() - 1000) },
    });
    await work(t);
    expect(await db.scheduledJob.count({ where: { id: { in: held.map((j) => j.id) }, status: "DONE" } })).toBe(3);
    const events = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, type: "conversation.sla_breached" },
    });
    expect(events.map((e) => (e.payload as { data: { conversationUid: string } }).data.conversationUid)).toEqual([
      overdue.id,
    ]);
    const recorded = await db.slaBreach.findMany({ where: { customerId: t.customer.id } });
    expect(recorded.map((b) => [b.conversationId, b.policyId, b.target])).toEqual([
      [overdue.id, first, "first_response"],
    ]);
    // Out of the amber/red and the "due soonest" order: no due time left from the deleted policy.
    for (const c of [plain, overdue]) {
      expect(await slaOf(t, c.id)).toBeNull();
      expect((await db.conversation.findUniqueOrThrow({ where: { id: c.id } })).slaDueAt).toBeNull();
      expect(await pending(c.id)).toEqual([]);
    }
    expect(await slaOf(t, vip.id)).toMatchObject({ policyUid: vipPolicy, breaches: [] });
  });
});

describe("a change of the business hours moves the due times of the policies that count them", () => {
  const allDay = {
    timezone: "UTC",
    days: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, open: "00:00", close: "24:00" })),
  };
  // One hour, three days from today: every wait now is due days ahead.
  const later = {
    timezone: "UTC",
    days: [{ day: (new Date().getUTCDay() + 3) % 7, open: "10:00", close: "11:00" }],
    holidays: [],
  };
  async function setHours(t: Customer, businessHours: unknown) {
    const res = await call("POST", "/api/v3/settings/business-hours", {
      token: t.globalToken,
      body: { businessHours },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it("new hours: the due times and timers move; the old hours' breach of a late timer is recorded; no business-hours policy, no job", async () => {
    const t = await messagingCustomer();
    const plainAccount = await messagingCustomer();
    await setHours(t, allDay);
    await setHours(plainAccount, allDay);
    const uid = await createPolicy(t, { name: "hours", firstResponseMinutes: 60, businessHoursOnly: true });
    await createPolicy(plainAccount, { name: "wall clock", firstResponseMinutes: 60 });
    const c = await opened(t);
    const overdue = await opened(t);
    const theirs = await opened(plainAccount);
    const theirsBefore = await slaOf(plainAccount, theirs.id);
    const wait = await waitOf(c.id);
    expect(Date.parse((await slaOf(t, c.id)).firstResponseDueAt)).toBe(wait.getTime() + 60 * 60_000);
    // Waiting 90 minutes, past its hour when the hours change, its timer due and not run (a worker behind).
    const overdueWait = await backdate(overdue.id, 90);
    await db.scheduledJob.updateMany({
      where: { subjectId: overdue.id, kind: SLA_JOB_KIND, status: "PENDING" },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    const jobsBefore = await db.scheduledJob.count({ where: { kind: SLA_POLICY_JOB_KIND, subjectId: uid } });

    await setHours(t, later);
    await setHours(plainAccount, later);
    expect(await db.scheduledJob.count({ where: { kind: SLA_POLICY_JOB_KIND, subjectId: uid } })).toBe(jobsBefore + 1);
    expect(
      await db.scheduledJob.count({ where: { kind: SLA_POLICY_JOB_KIND, customerId: plainAccount.customer.id } }),
    ).toBe(0);
    await work(t);
    await work(plainAccount);

    const due = addBusinessSeconds(wait, 3600, later) ?? new Date(0);
    expect(due.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
    const sla = await slaOf(t, c.id);
    expect(sla).toMatchObject({ policyUid: uid, firstResponseDueAt: due.toISOString(), breaches: [] });
    expect((await timers(c.id)).filter((j) => j.status === "PENDING").map((j) => j.dueAt.toISOString())).toEqual([
      due.toISOString(),
    ]);
    // Missed under the hours it waited in, recorded once with that due time; the new hours owe it days yet.
    const missed = await db.slaBreach.findMany({ where: { conversationId: overdue.id } });
    expect(missed.map((b) => [b.target, b.dueAt.getTime()])).toEqual([
      ["first_response", overdueWait.getTime() + 60 * 60_000],
    ]);
    expect((await slaOf(t, overdue.id)).firstResponseDueAt).toBe(
      addBusinessSeconds(overdueWait, 3600, later)?.toISOString(),
    );
    // A wall-clock policy's conversation is as it was.
    expect(await slaOf(plainAccount, theirs.id)).toEqual(theirsBefore);
  });
});

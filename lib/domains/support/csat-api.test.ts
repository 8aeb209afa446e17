// CSAT through the real router, the real callback endpoint and the survey worker
// (docs/reports.md "CSAT"): the setting, a member's close inside the window (reply buttons) and
// outside it (the utility template, or nothing), once per period, never to a blacklisted
// contact, never after a rule's or the system's close, the tap stored once without reopening,
// its comment, GET /reports/csat, the support report's figures, and isolation between accounts.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { runAutomationJobs, runStagedInbound } from "@/lib/domains/automation/worker";
import { addToBlacklist } from "@/lib/domains/contacts/blacklist";
import { updateConversation } from "@/lib/domains/conversations/service";
import { runCsatJobs } from "@/lib/domains/csat/send";
import { getSimulator } from "@/lib/domains/provider/client";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundReplyChange, inboundWamid, messagesChange } from "@/lib/domains/provider/simulator-inbound";
import type { Sender } from "@/lib/domains/senders/service";
import { CSAT_JOB_KIND } from "@/lib/domains/support/csat";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites, drainCallbacks, postSigned } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { createMemberOf, memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
const HOUR = 3_600_000;

async function csatCustomer(setting: Record<string, unknown> = { enabled: true, question: "How did we do?" }) {
  const t = await messagingCustomer();
  await db.template.create({
    data: {
      customerId: t.customer.id,
      name: "support_feedback",
      language: "en_US",
      category: "UTILITY",
      status: "APPROVED",
      providerTemplateId: String(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
      components: [{ type: "BODY", text: "How did we do? Reply 1, 2 or 3." }],
    },
  });
  const res = await call("POST", "/api/v3/settings/csat", { token: t.globalToken, body: setting });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

const conversationOf = (t: Customer, contact: string) =>
  db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });

const owners = new Map<string, { userId: string; email: string }>();

/** A member (a real one, so the survey names them) closes the conversation in the inbox. */
async function memberCloses(t: Customer, uid: string) {
  let member = owners.get(t.customer.id);
  if (!member) {
    member = await createMemberOf(t.customer.id, "owner");
    owners.set(t.customer.id, member);
  }
  const p = memberPrincipal(t.customer.id, { userId: member.userId, email: member.email });
  await updateConversation(p, undefined, uid, { status: "CLOSED" });
  return member.email;
}

const work = async (t: Customer) => {
  for (let i = 0; i < 5; i++) if ((await runCsatJobs({ customerIds: [t.customer.id] })) === 0) return;
};

const surveysOf = (uid: string) =>
  db.csatSurvey.findMany({ where: { conversationId: uid }, orderBy: { createdAt: "asc" } });

const providerSenderOf = (sender: Sender) => ({
  phoneNumberId: sender.phoneNumberId ?? "",
  phoneNumber: sender.phoneNumber,
  wabaId: sender.wabaId,
});

/** The contact taps a button of the survey message (its provider id quoted, as the provider does). */
async function contactTaps(sender: Sender, from: string, buttonId: string, context: string | null) {
  const id = inboundWamid();
  const body = envelopeFor([
    inboundReplyChange(providerSenderOf(sender), {
      from,
      id,
      ...(context ? { context } : {}),
      reply: { type: "button_reply", id: buttonId, title: "😀 Happy" },
    }),
  ]);
  expect(await postSigned(body)).toBe(200);
  await drainCallbacks();
  return id;
}

const eventsOf = (t: Customer) =>
  db.webhookEvent.findMany({ where: { customerId: t.customer.id, type: "conversation.csat_received" } });

describe("the setting", () => {
  it("reads off by default, changes what is given, checks the template, needs a global token", async () => {
    const t = await messagingCustomer();
    const first = await call("GET", "/api/v3/settings/csat", { token: t.globalToken });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ enabled: false, question: "How would you rate our support?", template: null });

    const marketing = await call("POST", "/api/v3/settings/csat", {
      token: t.globalToken,
      body: { template: { name: "spring_sale", language: "en" } },
    });
    expect(marketing.status).toBe(400);
    expect(marketing.body.error_code).toBe("VALIDATION_FAILED");
    const unknown = await call("POST", "/api/v3/settings/csat", {
      token: t.globalToken,
      body: { template: { name: "nope", language: "en" } },
    });
    expect(unknown.status).toBe(400);
    expect((await call("POST", "/api/v3/settings/csat", { token: t.globalToken, body: {} })).status).toBe(400);
    // A utility template still pending review would fail every survey outside the window.
    await db.template.create({
      data: {
        customerId: t.customer.id,
        name: "feedback_pending",
        language: "en",
        category: "UTILITY",
        status: "PENDING",
        providerTemplateId: String(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
        components: [{ type: "BODY", text: "How did we do?" }],
      },
    });
    const pending = await call("POST", "/api/v3/settings/csat", {
      token: t.globalToken,
      body: { template: { name: "feedback_pending", language: "en" } },
    });
    expect(pending.status).toBe(400);
    expect(pending.body.details.fields[0]).toMatchObject({
      path: "body.template",
      message: expect.stringContaining("APPROVED"),
    });

    const set = await call("POST", "/api/v3/settings/csat", {
      token: t.globalToken,
      body: { enabled: true, template: { name: "order_update", language: "en" } },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      enabled: true,
      question: "How would you rate our support?",
      template: { name: "order_update", language: "en" },
    });
    const question = await call("POST", "/api/v3/settings/csat", {
      token: t.globalToken,
      body: { question: "Rate us" },
    });
    expect(question.body.data).toMatchObject({ enabled: true, question: "Rate us" });
    expect(await db.auditEvent.count({ where: { customerId: t.customer.id, action: "csat.updated" } })).toBe(2);

    const scoped = await call("GET", "/api/v3/settings/csat", { token: t.scopedToken });
    expect(scoped.status).toBe(403);
    // Another account sees its own setting, not this one.
    const other = await messagingCustomer();
    const theirs = await call("GET", "/api/v3/settings/csat", { token: other.globalToken });
    expect(theirs.body.data.enabled).toBe(false);
  });

  it("an agent may not read or change it (the service checks the role)", async () => {
    const t = await messagingCustomer();
    const { getCsatSetting, setCsatSetting } = await import("./csat");
    const agent = memberPrincipal(t.customer.id, { role: "agent" });
    await expect(getCsatSetting(agent)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(setCsatSetting(agent, { enabled: true })).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const admin = memberPrincipal(t.customer.id, { role: "admin" });
    expect((await setCsatSetting(admin, { enabled: true })).enabled).toBe(true);
  });
});

describe("a member's close inside the window", () => {
  let t: Customer;
  beforeAll(async () => {
    t = await csatCustomer();
  });

  it("sends the question with three buttons, keeps it closed; the tap is stored once, with its comment", async () => {
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Where is my order?");
    const c = await conversationOf(t, contact);
    const email = await memberCloses(t, c.id);
    await work(t);

    const [survey] = await surveysOf(c.id);
    expect(survey).toMatchObject({ status: "SENT", channel: "buttons", memberEmail: email, score: null });
    const message = await db.message.findUniqueOrThrow({ where: { id: survey?.messageId ?? "" } });
    expect(message).toMatchObject({ type: "interactive", sendRoute: "automation" });
    // A real send: the provider has it.
    const sent = getSimulator()?.acceptedTo(contact) ?? [];
    expect(sent.map((m) => [m.messageId, m.type])).toContainEqual([message.providerMessageId, "interactive"]);
    expect(JSON.stringify(message.payload)).toContain(`csat:${survey?.id}:3`);
    expect(JSON.stringify(message.payload)).toContain("How did we do?");
    // Priced like any session message (the pipeline's balance check ran on it).
    expect(message.pricingCategory).not.toBeNull();
    expect((await conversationOf(t, contact)).status).toBe("CLOSED");

    await contactTaps(t.sender, contact, `csat:${survey?.id}:3`, message.providerMessageId);
    const answered = await db.csatSurvey.findUniqueOrThrow({ where: { id: survey?.id ?? "" } });
    expect(answered.score).toBe(3);
    expect(answered.respondedAt).not.toBeNull();
    // Not a new support request: still closed, no new period, no chatbot or rule run.
    expect((await conversationOf(t, contact)).status).toBe("CLOSED");
    expect(await db.supportPeriod.count({ where: { conversationId: c.id } })).toBe(1);
    const events = await eventsOf(t);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      data: { conversationUid: c.id, score: 3, memberId: email, contactPhoneNumber: contact },
    });

    // A second tap (another button) changes nothing and emits nothing.
    await contactTaps(t.sender, contact, `csat:${survey?.id}:1`, message.providerMessageId);
    expect((await db.csatSurvey.findUniqueOrThrow({ where: { id: survey?.id ?? "" } })).score).toBe(3);
    expect(await eventsOf(t)).toHaveLength(1);

    // The next text within 10 minutes is the comment; the one after is a new request.
    await contactWrites(t.sender, contact, "Quick and friendly");
    expect((await db.csatSurvey.findUniqueOrThrow({ where: { id: survey?.id ?? "" } })).comment).toBe(
      "Quick and friendly",
    );
    expect((await conversationOf(t, contact)).status).toBe("CLOSED");
    await contactWrites(t.sender, contact, "Actually, one more question");
    expect((await conversationOf(t, contact)).status).toBe("OPEN");
    expect(await db.supportPeriod.count({ where: { conversationId: c.id } })).toBe(2);

    // GET /reports/csat lists it; the member filter and the support report agree.
    const list = await call("GET", "/api/v3/reports/csat", { token: t.globalToken });
    expect(list.status).toBe(200);
    expect(list.body.data.responses).toEqual([
      expect.objectContaining({ conversationUid: c.id, memberId: email, score: 3, comment: "Quick and friendly" }),
    ]);
    expect(list.body.data.pagination).toMatchObject({ total: 1, page: 1 });
    const none = await call("GET", "/api/v3/reports/csat", { token: t.globalToken, query: { memberId: "api" } });
    expect(none.body.data.responses).toEqual([]);
    const mine = await call("GET", "/api/v3/reports/csat", { token: t.globalToken, query: { memberId: email } });
    expect(mine.body.data.responses).toHaveLength(1);
    const report = await call("GET", "/api/v3/reports/support", { token: t.globalToken, query: { groupBy: "member" } });
    expect(report.body.data.totals.csat).toEqual({ responses: 1, score: 100 });
    expect(report.body.data.groups.find((g: { key: string }) => g.key === email)?.csat).toEqual({
      responses: 1,
      score: 100,
    });
  });

  it("a replayed tap or comment reaches no rule: the provider's redelivery is still the answer", async () => {
    const u = await csatCustomer();
    const rule = await call("POST", "/api/v3/automations", {
      token: u.globalToken,
      body: {
        rule: {
          name: "Every message",
          trigger: { event: "message.inbound" },
          actions: [{ type: "note", text: "Seen" }],
        },
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const contact = uniquePhone();
    await contactWrites(u.sender, contact, "Where is my order?");
    const c = await conversationOf(u, contact);
    await memberCloses(u, c.id);
    await work(u);
    const [survey] = await surveysOf(c.id);
    const message = await db.message.findUniqueOrThrow({ where: { id: survey?.messageId ?? "" } });
    const tap = envelopeFor([
      inboundReplyChange(providerSenderOf(u.sender), {
        from: contact,
        id: inboundWamid(),
        context: message.providerMessageId ?? "",
        reply: { type: "button_reply", id: `csat:${survey?.id}:2`, title: "😐 Okay" },
      }),
    ]);
    const comment = envelopeFor([
      messagesChange(providerSenderOf(u.sender), {
        contacts: [{ profile: { name: "Ada" }, wa_id: contact.replace(/^\+/, "") }],
        messages: [
          {
            from: contact.replace(/^\+/, ""),
            id: inboundWamid(),
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: "text",
            text: { body: "Slow" },
          },
        ],
      }),
    ]);
    // Each delivered twice, the second time after the first was applied.
    for (const body of [tap, comment, tap, comment]) {
      expect(await postSigned(body)).toBe(200);
      await drainCallbacks();
    }
    expect(await db.csatSurvey.findUniqueOrThrow({ where: { id: survey?.id ?? "" } })).toMatchObject({
      score: 2,
      comment: "Slow",
    });
    expect((await conversationOf(u, contact)).status).toBe("CLOSED");
    // Only the contact's first message became a rule job; neither answer did, first time or again
    // (the worker writes the jobs of the messages the callbacks staged: docs/automation.md "Where rules run").
    while ((await runStagedInbound({ customerIds: [u.customer.id] })) > 0);
    const jobs = await db.scheduledJob.findMany({
      where: { customerId: u.customer.id, key: { startsWith: "auto:message.inbound:" } },
    });
    expect(jobs).toHaveLength(1);
    expect(await eventsOf(u)).toHaveLength(1);
  });

  it("a tap naming another conversation's survey is an ordinary message", async () => {
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hi");
    const c = await conversationOf(t, contact);
    await memberCloses(t, c.id);
    await contactTaps(t.sender, contact, "csat:csat_0000000000000000:3", null);
    expect((await conversationOf(t, contact)).status).toBe("OPEN");
  });

  it("once per period: a member's reopen and second close ask nothing; the contact's next request does", async () => {
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello");
    const c = await conversationOf(t, contact);
    await memberCloses(t, c.id);
    const owner = memberPrincipal(t.customer.id);
    await updateConversation(owner, undefined, c.id, { status: "OPEN" });
    await memberCloses(t, c.id);
    await work(t);
    expect(await surveysOf(c.id)).toHaveLength(1);
    // Through the API (a person's close too): the contact's new request is a new period.
    await contactWrites(t.sender, contact, "Me again");
    const res = await call("POST", `/api/v3/conversations/${c.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(res.status).toBe(200);
    await work(t);
    const surveys = await surveysOf(c.id);
    expect(surveys.map((s) => [s.status, s.memberEmail])).toEqual([
      ["SENT", expect.any(String)],
      ["SENT", null],
    ]);
  });

  it("the survey's claim outlives the provider's longest send (every attempt timing out)", async () => {
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello");
    const c = await conversationOf(t, contact);
    await memberCloses(t, c.id);
    const before = process.env.PROVIDER_TIMEOUT_MS;
    process.env.PROVIDER_TIMEOUT_MS = "90000";
    resetEnvCache();
    const simulator = getSimulator();
    if (!simulator) throw new Error("the tests run on the simulator");
    let heldForMs = 0;
    const send = simulator.sendMessage.bind(simulator);
    const spy = vi.spyOn(simulator, "sendMessage").mockImplementation(async (...args) => {
      // While the survey's send is in flight: how long is its job claimed for?
      const [job] = await db.$queryRaw<{ ms: number }[]>`
        SELECT (EXTRACT(EPOCH FROM ("lockedUntil" - now())) * 1000)::float8 AS ms FROM "ScheduledJob"
         WHERE "customerId" = ${t.customer.id} AND kind = ${CSAT_JOB_KIND} AND "subjectId" = ${c.id}`;
      heldForMs = job?.ms ?? 0;
      return send(...args);
    });
    try {
      await work(t);
    } finally {
      spy.mockRestore();
      if (before === undefined) delete process.env.PROVIDER_TIMEOUT_MS;
      else process.env.PROVIDER_TIMEOUT_MS = before;
      resetEnvCache();
    }
    expect((await surveysOf(c.id))[0]).toMatchObject({ status: "SENT" });
    // Four attempts of 90 s: a second worker must not take the survey while it may still go out.
    expect(heldForMs).toBeGreaterThan(4 * 90_000 - 5_000);
  });

  it("never to a blacklisted contact", async () => {
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello");
    await addToBlacklist(t.customer.id, t.sender.id, contact, "asked us to stop");
    const c = await conversationOf(t, contact);
    await memberCloses(t, c.id);
    await work(t);
    const [survey] = await surveysOf(c.id);
    expect(survey).toMatchObject({ status: "SKIPPED", reason: "blacklisted", messageId: null });
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: contact } })).toBe(0);
  });

  it("not after a rule's close or the system's", async () => {
    const rule = await call("POST", "/api/v3/automations", {
      token: t.globalToken,
      body: {
        rule: {
          name: "Close thanks",
          trigger: { event: "message.inbound" },
          conditions: [{ field: "message.text", op: "contains", value: "thanks bye" }],
          actions: [{ type: "close" }],
        },
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "thanks bye");
    for (let i = 0; i < 10; i++) if ((await runAutomationJobs({ customerIds: [t.customer.id] })) === 0) break;
    const c = await conversationOf(t, contact);
    expect(c.status).toBe("CLOSED");
    await call("POST", `/api/v3/automations/${rule.body.data.ruleUid}`, {
      token: t.globalToken,
      body: { rule: { enabled: false } },
    });

    const other = uniquePhone();
    await contactWrites(t.sender, other, "Hello");
    const d = await conversationOf(t, other);
    await updateConversation(systemPrincipal(t.customer.id), undefined, d.id, { status: "CLOSED" });
    await work(t);
    expect(await surveysOf(c.id)).toEqual([]);
    expect(await surveysOf(d.id)).toEqual([]);
  });
});

describe("a member's close outside the window", () => {
  it("sends the chosen utility template; a quick reply on it is the score", async () => {
    const t = await csatCustomer({ enabled: true, template: { name: "support_feedback", language: "en_US" } });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello", { at: new Date(Date.now() - 25 * HOUR) });
    const c = await conversationOf(t, contact);
    await memberCloses(t, c.id);
    await work(t);
    const [survey] = await surveysOf(c.id);
    expect(survey).toMatchObject({ status: "SENT", channel: "template" });
    const message = await db.message.findUniqueOrThrow({ where: { id: survey?.messageId ?? "" } });
    expect(message).toMatchObject({ type: "template", templateName: "support_feedback" });
    expect((await conversationOf(t, contact)).status).toBe("CLOSED");

    // A quick reply on the template: type "button" quoting it, its payload the button's text.
    const from = contact.replace(/\D/g, "");
    const change = messagesChange(providerSenderOf(t.sender), {
      contacts: [{ profile: { name: "Ada" }, wa_id: from }],
      messages: [
        {
          context: { from: t.sender.phoneNumber.replace(/^\+/, ""), id: message.providerMessageId },
          from,
          id: inboundWamid(),
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: "button",
          button: { payload: "2 Neutral", text: "2 Neutral" },
        },
      ],
    });
    expect(await postSigned(envelopeFor([change]))).toBe(200);
    await drainCallbacks();
    expect((await db.csatSurvey.findUniqueOrThrow({ where: { id: survey?.id ?? "" } })).score).toBe(2);
    expect((await conversationOf(t, contact)).status).toBe("CLOSED");
  });

  it("without a template: nothing is sent (never a session message outside the window)", async () => {
    const t = await csatCustomer();
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello", { at: new Date(Date.now() - 25 * HOUR) });
    const c = await conversationOf(t, contact);
    await memberCloses(t, c.id);
    await work(t);
    const [survey] = await surveysOf(c.id);
    expect(survey).toMatchObject({ status: "SKIPPED", messageId: null });
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: contact } })).toBe(0);
  });
});

describe("isolation and off", () => {
  it("with CSAT off nothing is asked; one account's answers never show in another's list or report", async () => {
    const a = await csatCustomer();
    const contact = uniquePhone();
    await contactWrites(a.sender, contact, "Hello");
    const c = await conversationOf(a, contact);
    await memberCloses(a, c.id);
    await work(a);
    const [survey] = await surveysOf(c.id);
    const message = await db.message.findUniqueOrThrow({ where: { id: survey?.messageId ?? "" } });
    await contactTaps(a.sender, contact, `csat:${survey?.id}:1`, message.providerMessageId);

    const b = await messagingCustomer();
    const bContact = uniquePhone();
    await contactWrites(b.sender, bContact, "Hello");
    const bc = await conversationOf(b, bContact);
    await memberCloses(b, bc.id);
    expect(await surveysOf(bc.id)).toEqual([]);
    // B's contact taps A's survey button: not B's survey, an ordinary message there.
    await contactTaps(b.sender, bContact, `csat:${survey?.id}:3`, null);
    expect((await db.csatSurvey.findUniqueOrThrow({ where: { id: survey?.id ?? "" } })).score).toBe(1);

    const list = await call("GET", "/api/v3/reports/csat", { token: b.globalToken });
    expect(list.body.data.responses).toEqual([]);
    const report = await call("GET", "/api/v3/reports/support", { token: b.globalToken });
    expect(report.body.data.totals.csat).toEqual({ responses: 0, score: null });
    const theirs = await call("GET", "/api/v3/reports/csat", { token: a.globalToken });
    expect(theirs.body.data.responses).toHaveLength(1);
    expect((await call("GET", "/api/v3/reports/support", { token: a.globalToken })).body.data.totals.csat).toEqual({
      responses: 1,
      score: 0,
    });
  });

  it("validates the list's query", async () => {
    const t = await messagingCustomer();
    const bad = await call("GET", "/api/v3/reports/csat", {
      token: t.globalToken,
      query: { dateFrom: "2026-11-20", dateTo: "2026-11-01" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");
  });
});

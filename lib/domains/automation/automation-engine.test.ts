// Automation rules running end to end (docs/automation.md): signed inbound callbacks through
// the real endpoint and processor write the jobs; the worker's passes (runAutomationJobs)
// run the rules; sends go through the normal send path to the provider simulator.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { createMemberOf } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { runAutomationJobs, runStagedInbound } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;

const work = async () => {
  // Jobs a pass writes (sends, reopenings) are due at once: run until nothing is left.
  for (let i = 0; i < 10; i++) if ((await runAutomationJobs({ customerIds: [t.customer.id] })) === 0) return;
};

async function createRule(rule: Record<string, unknown>): Promise<string> {
  const res = await call("POST", "/api/v3/automations", { token: t.globalToken, body: { rule } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.ruleUid as string;
}
const disable = (uid: string) =>
  call("POST", `/api/v3/automations/${uid}`, { token: t.globalToken, body: { rule: { enabled: false } } });
const runsOf = (ruleId: string) => db.automationRun.findMany({ where: { ruleId }, orderBy: { createdAt: "asc" } });
const conversationOf = (contact: string) =>
  db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });
const toProvider = (contact: string) => getSimulator()?.acceptedTo(contact) ?? [];

beforeAll(async () => {
  t = await messagingCustomer();
});

describe("message.inbound", () => {
  it("text contains -> note, assign, webhook, close: each action recorded, in one run", async () => {
    const billing = await createMemberOf(t.customer.id, "agent");
    const uid = await createRule({
      name: "Refunds",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "message.text", op: "contains", value: "refund" }],
      actions: [
        { type: "note", text: "Refund asked" },
        { type: "assign", assignee: billing.email },
        { type: "webhook" },
        { type: "close" },
      ],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello");
    await contactWrites(t.sender, contact, "A REFUND please");
    await work();
    const runs = await runsOf(uid);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: "done", trigger: "message.inbound" });
    expect(runs[0]?.actions).toEqual([
      { type: "note", outcome: "done", reason: null },
      { type: "assign", outcome: "done", reason: billing.email },
      { type: "webhook", outcome: "done", reason: null },
      { type: "close", outcome: "done", reason: null },
    ]);
    const c = await conversationOf(contact);
    expect(c).toMatchObject({ assigneeId: billing.userId, status: "CLOSED" });
    const notes = await db.conversationNote.findMany({ where: { conversationId: c.id } });
    expect(notes.map((n) => [n.text, n.authorType, n.authorTokenName])).toEqual([
      ["Refund asked", "automation", "Refunds"],
    ]);
    const event = await db.webhookEvent.findFirstOrThrow({
      where: { customerId: t.customer.id, type: "automation.triggered" },
    });
    expect((event.payload as { data: Record<string, unknown> }).data).toMatchObject({
      ruleUid: uid,
      runUid: runs[0]?.id,
      conversationUid: c.id,
      trigger: "message.inbound",
    });
    const api = await call("GET", `/api/v3/automations/${uid}/runs`, { token: t.globalToken });
    expect(api.status).toBe(200);
    expect(api.body.data.runs[0]).toMatchObject({ runUid: runs[0]?.id, conversationUid: c.id, outcome: "done" });
    await disable(uid);
  });

  it("conditions: matches, eq, message.type, contact field, assignee none, status, sender, time", async () => {
    const contact = uniquePhone();
    const book = await db.contactBook.create({ data: { customerId: t.customer.id, name: `VIPs ${contact}` } });
    await db.contact.create({
      data: {
        customerId: t.customer.id,
        contactBookId: book.id,
        phoneNumber: contact,
        name: "Ana",
        customFields: { tier: "Gold" },
      },
    });
    const note = [{ type: "note", text: "matched" }];
    const uids = {
      matches: await createRule({
        name: "m",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field: "message.text", op: "matches", value: "^order #[0-9]+$" }],
      }),
      eq: await createRule({
        name: "e",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field: "message.text", op: "eq", value: "ORDER #12" }],
      }),
      type: await createRule({
        name: "t",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field: "message.type", op: "eq", value: "image" }],
      }),
      field: await createRule({
        name: "f",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field: "contact.field.tier", op: "eq", value: "gold" }],
      }),
      unassigned: await createRule({
        name: "a",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [
          { field: "conversation.assignee", op: "eq", value: "none" },
          { field: "conversation.status", op: "eq", value: "OPEN" },
        ],
      }),
      otherSender: await createRule({
        name: "s",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field: "sender", op: "eq", value: t.otherSender.phoneNumber }],
      }),
      // No business hours set: always open.
      closedHours: await createRule({
        name: "h",
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field: "time", op: "eq", value: { inBusinessHours: false } }],
      }),
    };
    await contactWrites(t.sender, contact, "order #12");
    await work();
    const ran = async (uid: string) => (await runsOf(uid)).length;
    expect(await ran(uids.matches)).toBe(1);
    expect(await ran(uids.eq)).toBe(1);
    expect(await ran(uids.type)).toBe(0);
    expect(await ran(uids.field)).toBe(1);
    expect(await ran(uids.unassigned)).toBe(1);
    expect(await ran(uids.otherSender)).toBe(0);
    expect(await ran(uids.closedHours)).toBe(0);
    await contactWrites(t.sender, contact, "order #12 and more");
    await work();
    expect(await ran(uids.matches)).toBe(1);
    expect(await ran(uids.eq)).toBe(1);
    expect(await ran(uids.field)).toBe(2);
    for (const uid of Object.values(uids)) await disable(uid);
  });

  it("send_text inside the window is sent as the rule's; a rule's own sends trigger no message.inbound rule", async () => {
    const uid = await createRule({
      name: "Greeter",
      trigger: { event: "message.inbound" },
      actions: [{ type: "send_text", text: "Thanks, we got it" }],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hi");
    await work();
    const sent = toProvider(contact);
    expect(sent).toHaveLength(1);
    const [run] = await runsOf(uid);
    expect(run).toMatchObject({ outcome: "done" });
    expect(run?.actions).toEqual([{ type: "send_text", outcome: "done", reason: expect.stringMatching(/^msg_/) }]);
    const c = await conversationOf(contact);
    const entries = await db.conversationMessage.findMany({
      where: { conversationId: c.id },
      orderBy: { createdAt: "asc" },
    });
    expect(entries.map((e) => [e.direction, e.sentBy, e.sentByLabel])).toEqual([
      ["inbound", "contact", expect.anything()],
      ["outbound", "automation", "Greeter"],
    ]);
    // The reply went out; no rule ran again for it, and no job waits.
    await work();
    expect(await runsOf(uid)).toHaveLength(1);
    expect(toProvider(contact)).toHaveLength(1);
    await disable(uid);
  });
});

describe("conversation.created", () => {
  it("runs for the first message of a new conversation only", async () => {
    const uid = await createRule({
      name: "Welcome",
      trigger: { event: "conversation.created" },
      actions: [{ type: "note", text: "new" }],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "first");
    await contactWrites(t.sender, contact, "second");
    await work();
    const runs = await runsOf(uid);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.conversationId).toBe((await conversationOf(contact)).id);
    await disable(uid);
  });
});

describe("assign round robin, snooze", () => {
  it("roundRobin takes the agents in turn; snooze closes and a due reopening opens again", async () => {
    const fresh = await messagingCustomer();
    const a = await createMemberOf(fresh.customer.id, "agent");
    const b = await createMemberOf(fresh.customer.id, "agent");
    const res = await call("POST", "/api/v3/automations", {
      token: fresh.globalToken,
      body: {
        rule: {
          name: "rr",
          trigger: { event: "conversation.created" },
          actions: [
            { type: "assign", roundRobin: true },
            { type: "snooze", minutes: 30 },
          ],
        },
      },
    });
    expect(res.status).toBe(201);
    const contacts = [uniquePhone(), uniquePhone()];
    for (const contact of contacts) await contactWrites(fresh.sender, contact, "hi");
    for (let i = 0; i < 5; i++) await runAutomationJobs({ customerIds: [fresh.customer.id] });
    const rows = await db.conversation.findMany({
      where: { customerId: fresh.customer.id },
      orderBy: { createdAt: "asc" },
    });
    expect(new Set(rows.map((r) => r.assigneeId))).toEqual(new Set([a.userId, b.userId]));
    expect(rows.map((r) => r.status)).toEqual(["CLOSED", "CLOSED"]);
    const reopen = await db.scheduledJob.findMany({
      where: { customerId: fresh.customer.id, kind: "automation.reopen", status: "PENDING" },
    });
    expect(reopen).toHaveLength(2);
    expect(reopen[0]?.dueAt.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    // Time passes.
    await db.scheduledJob.updateMany({
      where: { id: { in: reopen.map((j) => j.id) } },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    await runAutomationJobs({ customerIds: [fresh.customer.id] });
    const after = await db.conversation.findMany({ where: { customerId: fresh.customer.id } });
    expect(after.map((r) => r.status)).toEqual(["OPEN", "OPEN"]);
  });
});

describe("labels", () => {
  const labels = async (...names: string[]) => {
    for (const name of names) {
      const res = await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name } } });
      expect([201, 409]).toContain(res.status);
    }
  };
  const labelsOn = async (contact: string) =>
    (await call("GET", `/api/v3/conversations/${(await conversationOf(contact)).id}`, { token: t.globalToken })).body
      .data.labels;

  it("label/unlabel actions change the conversation's labels as the rule's; label conditions read the conversation's and the contact's", async () => {
    await labels("refund", "new", "urgent", "vip");
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello");
    const c = await conversationOf(contact);
    await call("POST", `/api/v3/conversations/${c.id}/labels`, {
      token: t.globalToken,
      body: { add: ["new", "urgent"] },
    });
    await call("POST", `/api/v3/contacts/${encodeURIComponent(contact)}/labels`, {
      token: t.globalToken,
      body: { add: ["vip"] },
    });
    const note = [{ type: "note", text: "matched" }];
    const refunds = await createRule({
      name: "Refund labeller",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "message.text", op: "contains", value: "refund" }],
      actions: [
        { type: "label", labels: ["refund"] },
        { type: "unlabel", labels: ["new"] },
        { type: "unlabel", labels: ["vip"] },
      ],
    });
    const when = (field: string, op: string, value: string) =>
      createRule({
        name: `${field} ${op} ${value}`,
        trigger: { event: "message.inbound" },
        actions: note,
        conditions: [{ field, op, value }],
      });
    const uids = {
      contactHas: await when("contact.label", "has", "VIP"),
      contactLacks: await when("contact.label", "not_has", "vip"),
      conversationHas: await when("conversation.label", "has", "urgent"),
      conversationLacks: await when("conversation.label", "not_has", "urgent"),
      lacksOther: await when("conversation.label", "not_has", "vip"),
    };
    await contactWrites(t.sender, contact, "refund please");
    await work();
    const [run] = await runsOf(refunds);
    expect(run?.actions).toEqual([
      { type: "label", outcome: "done", reason: "refund" },
      { type: "unlabel", outcome: "done", reason: "new" },
      { type: "unlabel", outcome: "skipped", reason: "not there" },
    ]);
    expect(run?.outcome).toBe("done");
    expect(await labelsOn(contact)).toEqual(["refund", "urgent"]);
    const events = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, type: "conversation.labels_changed" },
      orderBy: { createdAt: "asc" },
    });
    const byRule = events
      .map(
        (e) =>
          (e.payload as { data: { conversationUid: string; by: string; added: string[]; removed: string[] } }).data,
      )
      .filter((d) => d.conversationUid === c.id && d.by === "automation: Refund labeller")
      .map((d) => ({ added: d.added, removed: d.removed }));
    expect(byRule).toEqual(
      expect.arrayContaining([
        { added: ["refund"], removed: [] },
        { added: [], removed: ["new"] },
      ]),
    );
    expect(byRule).toHaveLength(2);
    const ran = async (uid: string) => (await runsOf(uid)).length;
    expect(await ran(uids.contactHas)).toBe(1);
    expect(await ran(uids.contactLacks)).toBe(0);
    expect(await ran(uids.conversationHas)).toBe(1);
    expect(await ran(uids.conversationLacks)).toBe(0);
    expect(await ran(uids.lacksOther)).toBe(1);
    for (const uid of [refunds, ...Object.values(uids)]) await disable(uid);
  });

  it("a label deleted after the rule was saved: that action fails as label_not_found, the others run", async () => {
    await labels("short-lived", "stays");
    const uid = await createRule({
      name: "Deleted label",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "message.text", op: "contains", value: "deleted label" }],
      actions: [
        { type: "label", labels: ["short-lived"] },
        { type: "label", labels: ["stays"] },
        { type: "unlabel", labels: ["short-lived", "stays"] },
        { type: "note", text: "ran" },
      ],
    });
    // A condition naming it: `has` holds for nobody now, `not_has` for everybody.
    const lacks = await createRule({
      name: "Lacks the deleted label",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "conversation.label", op: "not_has", value: "short-lived" }],
      actions: [{ type: "note", text: "lacks" }],
    });
    const has = await createRule({
      name: "Has the deleted label",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "contact.label", op: "has", value: "short-lived" }],
      actions: [{ type: "note", text: "has" }],
    });
    const list = await call("GET", "/api/v3/labels", { token: t.globalToken });
    const gone = list.body.data.labels.find((l: { name: string }) => l.name === "short-lived");
    expect((await call("DELETE", `/api/v3/labels/${gone.labelUid}`, { token: t.globalToken })).status).toBe(200);

    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "a deleted label test");
    await work();
    const [run] = await runsOf(uid);
    expect(run?.actions).toEqual([
      { type: "label", outcome: "failed", reason: "label_not_found: short-lived" },
      { type: "label", outcome: "done", reason: "stays" },
      { type: "unlabel", outcome: "failed", reason: "label_not_found: short-lived" },
      { type: "note", outcome: "done", reason: null },
    ]);
    expect(run?.outcome).toBe("failed");
    expect(await labelsOn(contact)).toEqual(["stays"]);
    expect(await runsOf(lacks)).toHaveLength(1);
    expect(await runsOf(has)).toHaveLength(0);
    // The runs log says it as the API shows it.
    const runs = await call("GET", `/api/v3/automations/${uid}/runs`, { token: t.globalToken });
    expect(runs.body.data.runs[0].actions[0]).toEqual({
      type: "label",
      outcome: "failed",
      reason: "label_not_found: short-lived",
    });
    for (const rule of [uid, lacks, has]) await disable(rule);
  });

  it("conversation.labels_changed: a person's change runs its rules; a rule's own change triggers them once, never a chain", async () => {
    await labels("vip", "seen", "start", "on");
    // A person's change (the API): the rule runs once; its own change ("seen") runs it no more (not_has seen).
    const greeter = await createRule({
      name: "VIP seen",
      trigger: { event: "conversation.labels_changed" },
      conditions: [
        { field: "conversation.label", op: "has", value: "vip" },
        { field: "conversation.label", op: "not_has", value: "seen" },
      ],
      actions: [
        { type: "label", labels: ["seen"] },
        { type: "note", text: "A VIP" },
      ],
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "hello");
    const c = await conversationOf(contact);
    await call("POST", `/api/v3/conversations/${c.id}/labels`, { token: t.globalToken, body: { add: ["vip"] } });
    await work();
    expect(await runsOf(greeter)).toHaveLength(1);
    expect(await labelsOn(contact)).toEqual(["seen", "vip"]);
    await disable(greeter);

    // Two rules that would undo each other for ever: a rule's change (start) triggers them at
    // one level; their own changes trigger nothing.
    const start = await createRule({
      name: "Start",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "message.text", op: "eq", value: "go" }],
      actions: [{ type: "label", labels: ["start"] }],
    });
    const on = await createRule({
      name: "On",
      trigger: { event: "conversation.labels_changed" },
      conditions: [{ field: "conversation.label", op: "not_has", value: "on" }],
      actions: [{ type: "label", labels: ["on"] }],
    });
    const off = await createRule({
      name: "Off",
      trigger: { event: "conversation.labels_changed" },
      conditions: [{ field: "conversation.label", op: "has", value: "on" }],
      actions: [{ type: "unlabel", labels: ["on"] }],
    });
    const other = uniquePhone();
    await contactWrites(t.sender, other, "go");
    await work();
    expect(await runsOf(start)).toHaveLength(1);
    expect(await runsOf(on)).toHaveLength(1);
    expect((await runsOf(off)).length).toBeLessThanOrEqual(1);
    const pending = await db.scheduledJob.count({
      where: { customerId: t.customer.id, kind: "automation.event", status: "PENDING" },
    });
    expect(pending).toBe(0);
    for (const uid of [start, on, off]) await disable(uid);
  });
});

describe("the worker's batches", () => {
  it("a rule that fails midway in a batch: the other jobs' rules run once, the failed job is retried alone", async () => {
    const a = await createRule({
      name: "Batch A",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "message.text", op: "contains", value: "batch" }],
      actions: [{ type: "note", text: "A" }],
    });
    const b = await createRule({
      name: "Batch B",
      trigger: { event: "message.inbound" },
      conditions: [{ field: "message.text", op: "contains", value: "boom" }],
      actions: [{ type: "note", text: "B" }],
    });
    // B's stored actions broken behind the API's back: its run throws (not an action's failure).
    await db.automationRule.update({
      where: { id: b },
      data: { actions: [{ type: "note", text: "B" }, { type: "?" }] },
    });
    const contacts = [uniquePhone(), uniquePhone(), uniquePhone()];
    await contactWrites(t.sender, contacts[0] ?? "", "batch one");
    await contactWrites(t.sender, contacts[1] ?? "", "batch boom");
    await contactWrites(t.sender, contacts[2] ?? "", "batch three");
    // The callbacks' staged messages become the three event jobs (docs/automation.md "Where rules run").
    expect(await runStagedInbound({ customerIds: [t.customer.id] })).toBeGreaterThanOrEqual(3);
    // One pass claims the three jobs (and any an earlier test left due): A runs for each, B
    // throws on the second. No second pass here: on a slow machine its backoff could be over.
    expect(await runAutomationJobs({ customerIds: [t.customer.id] })).toBeGreaterThanOrEqual(3);
    const notes = async () =>
      Promise.all(
        contacts.map(async (contact) =>
          (
            await db.conversationNote.findMany({
              where: { conversationId: (await conversationOf(contact)).id },
              orderBy: { text: "asc" },
            })
          ).map((n) => n.text),
        ),
      );
    expect(await notes()).toEqual([["A"], ["A"], ["A"]]);
    expect(await runsOf(a)).toHaveLength(3);
    expect(await runsOf(b)).toHaveLength(0);
    const failed = await db.scheduledJob.findMany({
      where: { customerId: t.customer.id, status: "PENDING", kind: "automation.event", lastError: { not: null } },
    });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ subjectId: (await conversationOf(contacts[1] ?? "")).id, attempts: 1 });

    // B repaired and the retry due: the failed job runs again, A does not run twice.
    await db.automationRule.update({ where: { id: b }, data: { actions: [{ type: "note", text: "B" }] } });
    await db.scheduledJob.updateMany({
      where: { id: failed[0]?.id },
      data: { dueAt: new Date(Date.now() - 1000) },
    });
    await work();
    expect(await notes()).toEqual([["A"], ["A", "B"], ["A"]]);
    expect(await runsOf(a)).toHaveLength(3);
    expect(await runsOf(b)).toHaveLength(1);
    await disable(a);
    await disable(b);
  });
});

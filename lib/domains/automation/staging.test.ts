// Inbound messages reach the rules in two steps (docs/automation.md "Where rules run"): the
// callback's transaction stages them, one inbound job per account and batch, and nothing else;
// the worker turns a staged batch into its event jobs and timers, once however often it runs,
// and the timers of a conversation's latest message only, whatever order its batches come in.
import { expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { isListening, onNotification } from "@/lib/db/wakeups";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "@/lib/domains/provider/simulator-inbound";
import { claimDueJobs } from "@/lib/domains/schedule/jobs";
import { drainCallbacks, postSigned } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { JOB_KINDS } from "./actions";
import { type InboundForRules, scheduleInboundJobs, stageInbound } from "./enqueue";
import type { StagedInbound } from "./payloads";
import { handleAutomationJob } from "./runner";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

const jobsOf = (customerId: string) =>
  db.scheduledJob.findMany({ where: { customerId }, select: { kind: true, status: true, key: true } });

/** One signed callback carrying a message from each contact. */
const oneCallback = (t: Customer, contacts: string[]) =>
  envelopeFor(
    contacts.map((from) =>
      inboundTextChange(
        { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId },
        { from, text: "hello" },
      ),
    ),
  );

it("a callback batch stages one job for an account with rules, none for one without; run twice, it schedules its jobs and timers once", async () => {
  const ruled = await messagingCustomer();
  const plain = await messagingCustomer();
  for (const trigger of [{ event: "message.inbound" }, { event: "conversation.unanswered", minutes: 30 }]) {
    const res = await call("POST", "/api/v3/automations", {
      token: ruled.globalToken,
      body: { rule: { name: trigger.event, trigger, actions: [{ type: "note", text: "n" }] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const contacts = [uniquePhone(), uniquePhone(), uniquePhone()];
  expect(await postSigned(oneCallback(ruled, contacts))).toBe(200);
  expect(await postSigned(oneCallback(plain, contacts))).toBe(200);
  await drainCallbacks();
  expect(await db.conversationMessage.count({ where: { customerId: ruled.customer.id } })).toBe(3);

  // The callbacks wrote the staged batch and nothing else for the rules.
  expect((await jobsOf(ruled.customer.id)).map((j) => [j.kind, j.status])).toEqual([[JOB_KINDS.inbound, "PENDING"]]);
  expect(await jobsOf(plain.customer.id)).toEqual([]);

  // The worker runs it, and runs it again (a crash before its outcome was recorded).
  const [staged] = await claimDueJobs([JOB_KINDS.inbound], 10, 60_000, [ruled.customer.id]);
  if (!staged) throw new Error("the staged batch was not due");
  expect(await handleAutomationJob(staged)).toEqual({ status: "DONE" });
  expect(await handleAutomationJob(staged)).toEqual({ status: "DONE" });
  const written = (await jobsOf(ruled.customer.id)).filter((j) => j.kind !== JOB_KINDS.inbound);
  expect(written.filter((j) => j.kind === JOB_KINDS.event)).toHaveLength(3);
  expect(written.filter((j) => j.kind === JOB_KINDS.time && j.status === "PENDING")).toHaveLength(3);
  expect(written).toHaveLength(6);
});

it("timers: a conversation's latest message starts them; a batch written after a newer one starts none, and a newer one cancels the older", async () => {
  const t = await messagingCustomer();
  const res = await call("POST", "/api/v3/automations", {
    token: t.globalToken,
    body: {
      rule: {
        name: "nudge",
        trigger: { event: "conversation.unanswered", minutes: 30 },
        actions: [{ type: "note", text: "n" }],
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const t0 = Date.now();
  const staged = (conversationId: string, name: string, afterMs: number): StagedInbound => ({
    customerId: t.customer.id,
    senderId: t.sender.id,
    conversationId,
    providerMessageId: `wamid.${conversationId}.${name}`,
    text: "anyone?",
    type: "text",
    at: new Date(t0 + afterMs).toISOString(),
    created: false,
  });
  const write = (items: StagedInbound[]) => db.$transaction((tx) => scheduleInboundJobs(tx, items));
  const timersOf = async (conversationId: string) =>
    (await db.scheduledJob.findMany({ where: { subjectId: conversationId, kind: JOB_KINDS.time } }))
      .map((j) => [j.key.split(".").at(-1), j.status])
      .sort();

  // Out of order (a retried batch, a second worker): the newer batch first, then an older one of two messages.
  const late = `conv_late_${t0}`;
  await write([staged(late, "m3", 1_000)]);
  await write([staged(late, "m1", 0), staged(late, "m2", 500)]);
  expect(await timersOf(late)).toEqual([["m3", "PENDING"]]);

  // In order: a batch of two starts one timer, its latest; a newer batch cancels it.
  const inOrder = `conv_in_order_${t0}`;
  await write([staged(inOrder, "m1", 0), staged(inOrder, "m2", 500)]);
  expect(await timersOf(inOrder)).toEqual([["m2", "PENDING"]]);
  await write([staged(inOrder, "m3", 1_000)]);
  expect(await timersOf(inOrder)).toEqual([
    ["m2", "CANCELLED"],
    ["m3", "PENDING"],
  ]);
});

it("a batch stages, per account, the messages some enabled rule makes a job of: its sender watched, its trigger one a message starts", async () => {
  const rule = async (t: Customer, trigger: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const res = await call("POST", "/api/v3/automations", {
      token: t.globalToken,
      body: { rule: { name: String(trigger.event), trigger, actions: [{ type: "note", text: "n" }], ...extra } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  const [labelsOnly, createdOnly, oneSender, timed, disabled, none] = await Promise.all(
    Array.from({ length: 6 }, () => messagingCustomer()),
  );
  if (!labelsOnly || !createdOnly || !oneSender || !timed || !disabled || !none) throw new Error("accounts");
  await rule(labelsOnly, { event: "conversation.labels_changed" });
  await rule(createdOnly, { event: "conversation.created" });
  await rule(oneSender, { event: "message.inbound" }, { senderIds: [oneSender.sender.phoneNumber] });
  await rule(timed, { event: "conversation.idle", minutes: 60 });
  await rule(disabled, { event: "message.inbound" }, { enabled: false });

  const at = new Date("2026-12-01T08:00:00.000Z");
  let n = 0;
  const item = (t: Customer, created: boolean, senderId = t.sender.id): InboundForRules => {
    n += 1;
    return {
      customerId: t.customer.id,
      senderId,
      conversationId: `conv_stage_${n}`,
      providerMessageId: `wamid.stage.${n}.${t.customer.id}`,
      text: `message ${n}`,
      type: "text",
      at: new Date(at.getTime() + n),
      created,
    };
  };
  // The accounts' messages interleaved: each account's stay in the batch's order.
  const batch = [
    item(timed, false),
    item(labelsOnly, true),
    item(createdOnly, false),
    item(createdOnly, true),
    item(oneSender, false, "sndr_another_of_the_account"),
    item(oneSender, false),
    item(disabled, true),
    item(none, true),
    item(timed, true),
  ];
  // A text cut at 4,096 UTF-16 units through an emoji: the half left is not storable in jsonb.
  (batch[8] as InboundForRules).text = `${"a".repeat(4095)}😀 and more`;
  // When its conversation was locked: the unanswered timer's answers count from then (payloads.ts).
  (batch[0] as InboundForRules).seenAt = new Date(at.getTime() + 1500);
  const heard: string[] = [];
  const stopHearing = onNotification("jobs", (payload) => {
    if (payload !== undefined) heard.push(payload);
  });
  let staged = 0;
  try {
    await vi.waitFor(() => expect(isListening("jobs")).toBe(true), { timeout: 10_000 });
    // A batch no rule wants stages nothing; then the batch, which wakes the automation worker
    // (other test files' jobs may wake it too: this checks the notification comes, not that it alone does).
    expect(await db.$transaction((tx) => stageInbound(tx, [item(none, true), item(labelsOnly, false)]))).toBe(0);
    staged = await db.$transaction((tx) => stageInbound(tx, batch));
    await vi.waitFor(() => expect(heard).toContain(JOB_KINDS.inbound), { timeout: 10_000 });
  } finally {
    stopHearing();
  }
  expect(staged).toBe(4);
  const stagedOf = async (t: Customer) => {
    const jobs = await db.scheduledJob.findMany({ where: { customerId: t.customer.id, kind: JOB_KINDS.inbound } });
    return jobs.map((j) => (j.payload as { items: StagedInbound[] }).items.map((i) => i.providerMessageId));
  };
  const ids = (...items: InboundForRules[]) => items.map((i) => i.providerMessageId);
  expect(await stagedOf(labelsOnly)).toEqual([]);
  expect(await stagedOf(createdOnly)).toEqual([ids(batch[3] as InboundForRules)]);
  expect(await stagedOf(oneSender)).toEqual([ids(batch[5] as InboundForRules)]);
  // Both, in the batch's order, with the message as the worker reads it.
  expect(await stagedOf(timed)).toEqual([ids(batch[0] as InboundForRules, batch[8] as InboundForRules)]);
  expect(await stagedOf(disabled)).toEqual([]);
  expect(await stagedOf(none)).toEqual([]);
  const [job] = await db.scheduledJob.findMany({ where: { customerId: timed.customer.id, kind: JOB_KINDS.inbound } });
  if (!job) throw new Error("the idle rule's account staged no job");
  const first = batch[0] as InboundForRules;
  expect((job.payload as { items: StagedInbound[] }).items[0]).toEqual({
    ...first,
    at: first.at.toISOString(),
    seenAt: first.seenAt?.toISOString(),
  });
  expect((job.payload as { items: StagedInbound[] }).items[1]).toEqual({
    ...batch[8],
    text: `${"a".repeat(4095)}\uFFFD`,
    at: batch[8]?.at.toISOString(),
  });
});

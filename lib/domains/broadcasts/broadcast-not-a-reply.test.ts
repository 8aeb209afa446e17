// A broadcast's message is no person's reply (docs/reports.md "Definitions"): it joins and
// reopens the contact's conversation, but a contact waiting for a person is still waiting:
// the chatbot's hand-off, the SLA's response targets and the support period's wait stand, and
// no support reply is recorded, so the first response time is a person's. Nor do the chatbot's
// guard and the rules read it as a person's message (person-reply.ts).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runAutomationJobs, runStagedInbound } from "@/lib/domains/automation/worker";
import { startedBroadcast, waitingConversation } from "@/test/broadcast-fixtures";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { installRecordingProvider, type RecordingProvider } from "@/test/recording-provider";
import { dispatchOnce } from "./dispatcher";

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let provider: RecordingProvider;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 1_000 });
  provider = installRecordingProvider({ simulator: { failureRate: 0, statusDelayMs: 200_000_000, replyRate: 0 } });
});

afterAll(() => provider.restore());

it("a broadcast to contacts waiting for a person joins their threads and leaves them waiting", async () => {
  const phones = [uniquePhone(), uniquePhone()];
  const owner = { customerId: t.customer.id, senderId: t.sender.id };
  const before = [
    await waitingConversation(owner, phones[0] as string, false),
    await waitingConversation(owner, phones[1] as string, true),
  ];
  const uid = await startedBroadcast(t.globalToken, phones, { name: "Spring sale" });
  await dispatchOnce({ customerIds: [t.customer.id], housekeeping: false });
  expect(await db.broadcastRecipient.count({ where: { broadcastId: uid, status: "accepted" } })).toBe(2);

  for (const c of before) {
    const after = await db.conversation.findUniqueOrThrow({ where: { id: c.id } });
    // Joined (and the closed one reopened), shown as the API's, named after the broadcast.
    expect(after).toMatchObject({ status: "OPEN", closedAt: null });
    const entries = await db.conversationMessage.findMany({ where: { conversationId: c.id } });
    expect(entries.map((e) => [e.sentBy, e.sentByLabel])).toEqual([["api", "Broadcast Spring sale"]]);
    // Still waiting for a person: nothing a person's reply clears is cleared.
    expect(after).toMatchObject({ handoffAt: c.at, slaFirstResponseDueAt: c.due, slaDueAt: c.due });
    expect(await db.supportPeriod.findUniqueOrThrow({ where: { id: c.period } })).toMatchObject({
      waitingSince: c.at,
      replyCount: 0,
    });
    expect(await db.supportResponse.count({ where: { periodId: c.period } })).toBe(0);
  }
});

it("a broadcast quiets no chatbot and answers no unanswered timer: the contact still waits, the bot still answers", async () => {
  const bot = await call("POST", "/api/v3/chatbots", {
    token: t.globalToken,
    body: {
      chatbot: { name: "Front desk", status: "ACTIVE", rules: [], fallbackReply: { type: "text", text: "Hi!" } },
    },
  });
  expect(bot.status, JSON.stringify(bot.body)).toBe(201);
  const rule = await call("POST", "/api/v3/automations", {
    token: t.globalToken,
    body: {
      rule: {
        name: "nudge",
        trigger: { event: "conversation.unanswered", minutes: 30 },
        actions: [{ type: "note", text: "waiting 30 min" }],
      },
    },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  const contact = uniquePhone();
  const botReplies = () => db.chatbotReply.count({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });

  await contactWrites(t.sender, contact, "anyone there?");
  await runStagedInbound({ customerIds: [t.customer.id] });
  expect(await botReplies()).toBe(1);
  const uid = await startedBroadcast(t.globalToken, [contact], { name: "Spring sale" });
  await dispatchOnce({ customerIds: [t.customer.id], housekeeping: false });
  expect(await db.broadcastRecipient.count({ where: { broadcastId: uid, status: "accepted" } })).toBe(1);

  // The unanswered timer comes due: nobody answered, so the rule runs.
  const c = await db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: contact } });
  await db.scheduledJob.updateMany({
    where: { customerId: t.customer.id, subjectId: c.id, kind: "automation.time", status: "PENDING" },
    data: { dueAt: new Date(Date.now() - 1000) },
  });
  for (let i = 0; i < 5; i++) await runAutomationJobs({ customerIds: [t.customer.id] });
  expect(await db.automationRun.count({ where: { ruleId: rule.body.data.ruleUid, conversationId: c.id } })).toBe(1);
  // The contact answers the broadcast within 30 minutes of it: the bot answers, as it did before it.
  await contactWrites(t.sender, contact, "what sale?");
  expect(await botReplies()).toBe(2);
});

it("a broadcast that reopens a conversation whose close ended its hand-off leaves nobody waiting", async () => {
  const phone = uniquePhone();
  const owner = { customerId: t.customer.id, senderId: t.sender.id };
  const ago = (s: number) => new Date(Date.now() - s * 1000);
  const c = await db.conversation.create({
    data: {
      id: `conv_${randomBytes(12).toString("hex")}`,
      ...owner,
      contactPhoneNumber: phone,
      status: "CLOSED",
      closedAt: ago(60),
      lastMessageAt: ago(120),
      lastInboundAt: ago(180),
      lastMessagePreview: "earlier",
      handoffAt: ago(120),
    },
  });
  // Its period: the contact wrote, the bot handed off, a member closed it (resolved, nobody waits).
  await db.supportPeriod.create({
    data: {
      id: `sp_${randomBytes(12).toString("hex")}`,
      ...owner,
      conversationId: c.id,
      startedAt: ago(180),
      resolvedAt: ago(60),
    },
  });
  await startedBroadcast(t.globalToken, [phone], { name: "Autumn sale" });
  await dispatchOnce({ customerIds: [t.customer.id], housekeeping: false });
  expect(await db.conversation.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
    status: "OPEN",
    handoffAt: null,
  });
});

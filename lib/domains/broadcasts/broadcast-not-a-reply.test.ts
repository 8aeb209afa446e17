// A broadcast's message is no person's reply (docs/reports.md "Definitions"): it joins and
// reopens the contact's conversation, but a contact waiting for a person is still waiting:
// the chatbot's hand-off, the SLA's response targets and the support period's wait stand, and
// no support reply is recorded, so the first response time is a person's.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startedBroadcast, waitingConversation } from "@/test/broadcast-fixtures";
import { uniquePhone } from "@/test/factory";
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

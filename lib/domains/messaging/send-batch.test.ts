// A broadcast's messages join their conversations after their calls (send-batch.ts joinThreads,
// docs/broadcasts.md "How it sends"), each at its message's record time: what the contact or a
// member did to the conversation between the record and the join stands, as it would have had
// the message joined when recorded (before its call, as a single send's does).
import { randomBytes } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { CreatedConversation } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { joinThreads } from "./send-batch";

let t: Awaited<ReturnType<typeof messagingCustomer>>;

beforeAll(async () => {
  t = await messagingCustomer();
});

/** A broadcast's message to `phone`, recorded at `at`. */
async function message(phone: string, at: Date) {
  return db.message.create({
    data: {
      id: `msg_${randomBytes(8).toString("hex")}`,
      customerId: t.customer.id,
      senderId: t.sender.id,
      recipient: phone,
      type: "template",
      sendRoute: "send",
      status: "accepted",
      payload: { type: "template", template: { name: "order_update" } },
      createdAt: at,
    },
  });
}

it("a reply and a hand-off after the message was recorded stand; a wait before it is answered", async () => {
  const recordedAt = new Date(Date.now() - 2_000);
  const replied = uniquePhone();
  const waiting = uniquePhone();
  const later = new Date(recordedAt.getTime() + 1_000);
  const earlier = new Date(recordedAt.getTime() - 60_000);
  const due = new Date(Date.now() + 3_600_000);
  const conversation = async (phone: string, inboundAt: Date) => {
    const id = `conv_${randomBytes(12).toString("hex")}`;
    await db.conversation.create({
      data: {
        id,
        customerId: t.customer.id,
        senderId: t.sender.id,
        contactPhoneNumber: phone,
        lastMessageAt: inboundAt,
        lastInboundAt: inboundAt,
        lastMessagePreview: "their reply",
        handoffAt: inboundAt,
        slaFirstResponseDueAt: due,
        slaDueAt: due,
      },
    });
    const period = await db.supportPeriod.create({
      data: {
        id: `sp_${randomBytes(12).toString("hex")}`,
        customerId: t.customer.id,
        senderId: t.sender.id,
        conversationId: id,
        startedAt: inboundAt,
        waitingSince: inboundAt,
      },
    });
    return { id, period: period.id };
  };
  // The contact replied (and a chatbot handed off) after the message was recorded, before it joined.
  const a = await conversation(replied, later);
  // The contact's wait began before the message: the broadcast's reply answers it, as before.
  const b = await conversation(waiting, earlier);
  const live: LiveEvent[] = [];
  const created: CreatedConversation[] = [];
  await joinThreads(
    t.sender,
    { by: "api", label: "Broadcast late" },
    [await message(replied, recordedAt), await message(waiting, recordedAt)],
    live,
    created,
  );
  const after = await db.conversation.findUniqueOrThrow({ where: { id: a.id } });
  expect(after).toMatchObject({ handoffAt: later, slaFirstResponseDueAt: due, lastMessagePreview: "their reply" });
  expect(after.lastMessageAt).toEqual(later);
  expect(await db.supportPeriod.findUniqueOrThrow({ where: { id: a.period } })).toMatchObject({ waitingSince: later });
  expect(await db.supportResponse.count({ where: { periodId: a.period } })).toBe(0);
  const answered = await db.conversation.findUniqueOrThrow({ where: { id: b.id } });
  expect(answered).toMatchObject({ handoffAt: null, slaFirstResponseDueAt: null });
  expect(answered.lastMessageAt).toEqual(recordedAt);
  expect(await db.supportPeriod.findUniqueOrThrow({ where: { id: b.period } })).toMatchObject({ waitingSince: null });
  expect(await db.supportResponse.count({ where: { periodId: b.period } })).toBe(1);
  // Both messages are in their threads, at their record time.
  const entries = await db.conversationMessage.findMany({ where: { conversationId: { in: [a.id, b.id] } } });
  expect(entries.map((e) => e.createdAt)).toEqual([recordedAt, recordedAt]);
  expect(live.filter((e) => e.kind === "message.created")).toHaveLength(2);
  expect(created).toHaveLength(0);
});

it("a close by a member after the message was recorded stands; a close before it is reopened", async () => {
  const recordedAt = new Date(Date.now() - 2_000);
  const conversation = async (closedAt: Date) => {
    const phone = uniquePhone();
    const id = `conv_${randomBytes(12).toString("hex")}`;
    await db.conversation.create({
      data: {
        id,
        customerId: t.customer.id,
        senderId: t.sender.id,
        contactPhoneNumber: phone,
        lastMessageAt: closedAt,
        status: "CLOSED",
        closedAt,
      },
    });
    return { id, phone };
  };
  const closedLater = await conversation(new Date(recordedAt.getTime() + 1_000));
  const closedBefore = await conversation(new Date(recordedAt.getTime() - 60_000));
  await joinThreads(
    t.sender,
    { by: "api", label: "Broadcast late" },
    [await message(closedLater.phone, recordedAt), await message(closedBefore.phone, recordedAt)],
    [],
    [],
  );
  expect(await db.conversation.findUniqueOrThrow({ where: { id: closedLater.id } })).toMatchObject({
    status: "CLOSED",
  });
  expect(await db.conversation.findUniqueOrThrow({ where: { id: closedBefore.id } })).toMatchObject({
    status: "OPEN",
    closedAt: null,
  });
});

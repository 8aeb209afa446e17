// A sender's limits on GET /senders (docs/messaging.md "Sender limits"): the throughput and the
// business account's messaging limit, whose use counts unique contacts reached outside an open
// window in the rolling 24 hours, across the account's senders and no other customer's.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { messagingLimitUsage } from "./limits";

recordApiAnswers();

const HOUR = 3600_000;
type Shown = { phoneNumber: string; throughputPerSecond: number; messagingLimit: Record<string, unknown> };

async function message(customerId: string, senderId: string, recipient: string, at: Date, status = "accepted") {
  await db.message.create({
    data: {
      id: `msg_${randomBytes(8).toString("hex")}`,
      customerId,
      senderId,
      recipient,
      type: "template",
      templateName: "hello_world",
      sendRoute: "send",
      status,
      payload: {},
      createdAt: at,
    },
  });
}

/** The contact wrote to the sender at `at`: its window was open for the 24 hours after. */
async function inbound(customerId: string, senderId: string, contact: string, at: Date) {
  const conversation = await db.conversation.create({
    data: {
      id: `conv_${randomBytes(8).toString("hex")}`,
      customerId,
      senderId,
      contactPhoneNumber: contact,
      lastMessageAt: at,
      lastInboundAt: at,
      windowExpiresAt: new Date(at.getTime() + 24 * HOUR),
    },
  });
  await db.conversationMessage.create({
    data: {
      id: `cmsg_${randomBytes(8).toString("hex")}`,
      customerId,
      conversationId: conversation.id,
      direction: "inbound",
      type: "text",
      content: { text: { body: "hi" } },
      sentBy: "contact",
      createdAt: at,
    },
  });
}

describe("GET /senders: throughput and messaging limit", () => {
  it("a new sender shows the defaults: 80/s, tier 10,000, nothing used", async () => {
    const t = await createTestCustomer();
    const res = await call("GET", "/api/v2/senders", { token: t.globalToken });
    expect(res.status).toBe(200);
    const first = res.body.data.senders[0] as Shown;
    expect(first.throughputPerSecond).toBe(80);
    expect(first.messagingLimit).toEqual({ tier: 10_000, usedLast24h: 0, resetsAt: null });
  });

  it("counts unique contacts outside a window in the 24 hours, shared by the senders of one business account", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    const now = Date.now();
    const ago = (hours: number) => new Date(now - hours * HOUR);
    // The second sender belongs to the same business account; the third has its own.
    await db.sender.update({ where: { id: t.otherSender.id }, data: { wabaId: t.sender.wabaId } });
    await db.sender.updateMany({
      where: { customerId: t.customer.id, wabaId: t.sender.wabaId },
      data: { messagingLimit: 2000, throughputPerSecond: 250 },
    });
    const [a, b, c, d, e, f] = [1, 2, 3, 4, 5, 6].map(() => uniquePhone());
    await message(t.customer.id, t.sender.id, a as string, ago(20)); // counts once: its latest message (1 h ago) is what keeps it counted
    await message(t.customer.id, t.sender.id, a as string, ago(1)); // the same contact again
    await message(t.customer.id, t.otherSender.id, b as string, ago(10)); // the account's other sender: counts
    await message(t.customer.id, t.sender.id, c as string, ago(25)); // older than 24 h
    await message(t.customer.id, t.sender.id, d as string, ago(2), "failed"); // refused: reached nobody
    await inbound(t.customer.id, t.sender.id, e as string, ago(5));
    await message(t.customer.id, t.sender.id, e as string, ago(3)); // window open: free
    await message(t.customer.id, t.incompleteSender.id, f as string, ago(2)); // another account
    await message(other.customer.id, other.sender.id, uniquePhone(), ago(2)); // another customer

    const res = await call("GET", "/api/v3/senders", { token: t.globalToken });
    expect(res.status).toBe(200);
    const shown = new Map((res.body.data.senders as Shown[]).map((s) => [s.phoneNumber, s]));
    const main = shown.get(t.sender.phoneNumber);
    expect(main?.throughputPerSecond).toBe(250);
    expect(main?.messagingLimit.tier).toBe(2000);
    expect(main?.messagingLimit.usedLast24h).toBe(2);
    // Contact b (10 h ago) is the oldest counted one: it leaves the 24 hours in 14 hours.
    expect(Date.parse(main?.messagingLimit.resetsAt as string)).toBeCloseTo(now + 14 * HOUR, -4);
    expect(shown.get(t.otherSender.phoneNumber)?.messagingLimit).toEqual(main?.messagingLimit);
    expect(shown.get(t.incompleteSender.phoneNumber)?.messagingLimit).toMatchObject({ tier: 10_000, usedLast24h: 1 });

    // A number-scoped token sees its own sender with the account's whole use.
    const scoped = await call("GET", "/api/v2/senders", { token: t.scopedToken });
    expect((scoped.body.data.senders as Shown[])[0]?.messagingLimit.usedLast24h).toBe(2);
  });

  it("a contact counted at the window's edge: the message 25 hours after the inbound counts", async () => {
    const t = await createTestCustomer();
    const contact = uniquePhone();
    const now = new Date();
    await inbound(t.customer.id, t.sender.id, contact, new Date(now.getTime() - 30 * HOUR));
    await message(t.customer.id, t.sender.id, contact, new Date(now.getTime() - 5 * HOUR));
    expect(await messagingLimitUsage(t.customer.id, [t.sender.id], now)).toMatchObject({ usedLast24h: 1 });
    // Seen from 20 hours later the message has left the 24 hours.
    const later = new Date(now.getTime() + 20 * HOUR);
    expect(await messagingLimitUsage(t.customer.id, [t.sender.id], later)).toEqual({ usedLast24h: 0, resetsAt: null });
  });
});

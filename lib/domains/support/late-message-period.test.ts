// A message sent before a close and processed after it (docs/reports.md "Definitions"): it reopens
// the conversation and opens the next period, which starts no earlier than the close. The
// periods follow each other in time, so a reopened period is never dated before the one it follows; and
// the last close is the latest in time, even where a close was stamped before its period began.
import { expect, it } from "vitest";
import { db } from "@/lib/db";
import { lastCloseOf } from "@/lib/domains/support/last-close";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";

it("a late message opens the next period at the close, not before it", async () => {
  const t = await messagingCustomer();
  const contact = uniquePhone();
  // The contact wrote a minute ago; a member closed the conversation just now.
  const asked = await contactWrites(t.sender, contact, "Where is my order?", { at: new Date(Date.now() - 60_000) });
  const { conversationId } = await db.conversationMessage.findUniqueOrThrow({ where: { providerMessageId: asked } });
  const closed = await call("POST", `/api/v3/conversations/${conversationId}`, {
    token: t.globalToken,
    body: { conversation: { status: "CLOSED" } },
  });
  expect(closed.status, JSON.stringify(closed.body)).toBe(200);
  // Sent 30 seconds ago, before the close; the provider delivers it only now.
  await contactWrites(t.sender, contact, "Also, can I change the address?", { at: new Date(Date.now() - 30_000) });

  const [first, next] = await db.supportPeriod.findMany({ where: { conversationId }, orderBy: { startedAt: "asc" } });
  expect(first?.reopened).toBe(false);
  expect(next?.reopened).toBe(true);
  const closedAt = first?.resolvedAt;
  expect(closedAt).toBeInstanceOf(Date);
  expect(next?.startedAt).toEqual(closedAt);
  expect(next?.waitingSince).toEqual(closedAt);
});

it("the last close is the latest in time, whatever order its periods started in", async () => {
  const t = await messagingCustomer();
  const asked = await contactWrites(t.sender, uniquePhone(), "Hello?");
  const { conversationId } = await db.conversationMessage.findUniqueOrThrow({ where: { providerMessageId: asked } });
  const first = await db.supportPeriod.findFirstOrThrow({ where: { conversationId } });
  // What a close stamped before the message that opened the period took the lock leaves: the
  // period ends before it starts (recordCloses), and a late message's period starts earlier still.
  const t0 = Date.parse("2026-11-20T10:00:00Z");
  await db.supportPeriod.update({
    where: { id: first.id },
    data: { startedAt: new Date(t0 + 5_000), resolvedAt: new Date(t0) },
  });
  await db.supportPeriod.create({
    data: {
      id: `sp_late${Date.now()}`,
      customerId: first.customerId,
      senderId: first.senderId,
      conversationId,
      startedAt: new Date(t0 + 2_000),
      resolvedAt: new Date(t0 + 300_000),
      reopened: true,
    },
  });
  expect(await lastCloseOf(db, conversationId)).toEqual(new Date(t0 + 300_000));
});

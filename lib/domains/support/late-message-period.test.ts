// A message sent before a close and processed after it (docs/reports.md "Definitions"): it reopens
// the conversation and opens the next period, which starts no earlier than the close. The
// periods follow each other in time, so a reopened period is never dated before the one it follows.
import { expect, it } from "vitest";
import { db } from "@/lib/db";
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

// The dashboard inbox's service pieces (lib/domains/conversations/inbox.ts) on a real database:
// unread first then newest, the badge in the same scope, tenants apart, and a dashboard
// reply labelled with the signed-in user's email.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { replyToConversation } from "@/lib/domains/messaging/conversation-reply";
import { contactWrites } from "@/test/conversation-fixtures";
import { createTestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { dashboardSentBy, inboxPage } from "./inbox";
import { toPublicThreadMessage } from "./serializers";
import { listThread, markConversationRead } from "./service";

const PAGE = { page: 1, limit: 50, unread: false };

async function sessionOf(customerId: string): Promise<{ p: Principal; email: string }> {
  const email = `inbox-${randomBytes(4).toString("hex")}@example.test`;
  const user = await db.user.create({ data: { customerId, email, passwordHash: "x" } });
  return { p: memberPrincipal(customerId, { userId: user.id, email }), email };
}

describe("the inbox list", () => {
  it("puts unread conversations first, then the newest, and counts the unread ones in the same scope", async () => {
    const t = await messagingCustomer();
    const { p } = await sessionOf(t.customer.id);
    const older = recipient();
    const newer = recipient();
    // Provider timestamps are whole seconds: a minute apart, so the order is certain.
    await contactWrites(t.sender, older, "first", { at: new Date(Date.now() - 60_000) });
    await contactWrites(t.sender, newer, "second");
    const before = await inboxPage(p, undefined, PAGE);
    expect(before.conversations.map((c) => c.contactPhoneNumber)).toEqual([newer, older]);
    expect(before.unread).toBe(2);

    await markConversationRead(p, undefined, before.conversations[0].id);
    const after = await inboxPage(p, t.sender.id, PAGE);
    expect(after.conversations.map((c) => c.contactPhoneNumber)).toEqual([older, newer]);
    expect(after.unread).toBe(1);
    expect(after.total).toBe(2);
    expect((await inboxPage(p, undefined, { ...PAGE, unread: true })).conversations).toHaveLength(1);

    // Another sender of the same customer, and another customer, see nothing of it.
    expect(await inboxPage(p, t.otherSender.id, PAGE)).toMatchObject({ conversations: [], unread: 0, total: 0 });
    const other = await createTestCustomer();
    const stranger = await sessionOf(other.customer.id);
    expect(await inboxPage(stranger.p, undefined, PAGE)).toMatchObject({ conversations: [], unread: 0, total: 0 });
  });
});

describe("a reply from the dashboard", () => {
  it("is sent by the signed-in user, labelled with their email in the thread", async () => {
    const t = await messagingCustomer();
    const { p, email } = await sessionOf(t.customer.id);
    const contact = recipient();
    await contactWrites(t.sender, contact, "Hi there");
    const [c] = (await inboxPage(p, undefined, PAGE)).conversations;
    expect(await dashboardSentBy(p)).toEqual({ by: "dashboard", label: email });

    await replyToConversation(
      p,
      undefined,
      c.id,
      { type: "text", text: { body: "Hello back" } },
      await dashboardSentBy(p),
    );
    const { messages } = await listThread(p, undefined, c.id, { page: 1, limit: 10 });
    const reply = toPublicThreadMessage(messages[0]);
    expect(reply).toMatchObject({ direction: "outbound", sentBy: "dashboard", sentByLabel: email });
    expect(reply.content).toEqual({ text: expect.objectContaining({ body: "Hello back" }) });
  });

  it("never borrows a user of another customer for its label", async () => {
    const t = await messagingCustomer();
    const other = await createTestCustomer();
    const { p: foreign } = await sessionOf(other.customer.id);
    const mixed: Principal = { ...foreign, customerId: t.customer.id };
    expect(await dashboardSentBy(mixed)).toEqual({ by: "dashboard", label: null });
  });
});

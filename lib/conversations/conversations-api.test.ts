// Conversations through the real router on v2 and v3 (docs/conversations.md).
import { describe, expect, it } from "vitest";
import { messagingCustomer, recipient } from "@/lib/messaging/test-helpers";
import { call } from "@/test/factory";

const templateBody = (to: string) => ({ to, template: { name: "order_update", language: "en" } });

describe("outbound messages join their conversation", () => {
  it("a template send creates the conversation with the message in its thread", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const sent = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(to) });
    expect(sent.status).toBe(200);
    const list = await call("GET", "/api/v3/conversations", { token: t.globalToken });
    expect(list.status).toBe(200);
    expect(list.body.data.scope).toBe("user");
    expect(list.body.data.conversations).toHaveLength(1);
    const c = list.body.data.conversations[0];
    expect(c).toMatchObject({
      contactPhoneNumber: to,
      senderId: t.sender.phoneNumber,
      status: "OPEN",
      unreadCount: 0,
      windowOpen: false,
      lastInboundAt: null,
      windowExpiresAt: null,
      lastMessagePreview: "Template: order_update",
      blacklisted: false,
    });
    const thread = await call("GET", `/api/v2/conversations/${c.conversationUid}/messages`, { token: t.globalToken });
    expect(thread.status).toBe(200);
    expect(thread.body.data.messages).toEqual([
      expect.objectContaining({
        messageUid: sent.body.data.messageUid,
        direction: "outbound",
        type: "template",
        sentBy: "api",
        providerMessageId: sent.body.data.messageId,
        status: "accepted",
      }),
    ]);
  });
});

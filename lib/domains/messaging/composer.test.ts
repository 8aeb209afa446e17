// The dashboard composer goes through the same send service and checks as the API.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { addToBlacklist } from "@/lib/domains/contacts/blacklist";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { createMemberOf, memberPrincipal } from "@/test/member-fixtures";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { sendFromComposer } from "./composer";
import { ComposerBody } from "./schemas";

describe("dashboard composer", () => {
  it("sends a template or a session text from the chosen sender", async () => {
    const t = await messagingCustomer();
    const p: Principal = memberPrincipal(t.customer.id);
    const template = await sendFromComposer(
      p,
      ComposerBody.parse({
        mode: "template",
        senderId: t.otherSender.phoneNumber,
        to: recipient(),
        template: { name: "order_update", components: HELLO_PARAMS },
      }),
    );
    expect(template).toMatchObject({ status: "accepted", sendRoute: "send", senderId: t.otherSender.phoneNumber });
    expect(template.messageId).toMatch(/^wamid\./);
    const to = await engagedRecipient(t.sender);
    const text = await sendFromComposer(
      p,
      ComposerBody.parse({ mode: "session", senderId: t.sender.phoneNumber, to, text: "Hello" }),
    );
    expect(text).toMatchObject({ type: "text", sendRoute: "chat" });
    await addToBlacklist(t.customer.id, t.sender.id, to);
    await expect(
      sendFromComposer(p, ComposerBody.parse({ mode: "session", senderId: t.sender.phoneNumber, to, text: "Hello" })),
    ).rejects.toMatchObject({ code: "RECIPIENT_BLACKLISTED" });
    expect(ComposerBody.safeParse({ mode: "session", senderId: t.sender.phoneNumber, to, text: "" }).success).toBe(
      false,
    );
  });

  it("a member's reply from the composer is theirs: the thread and the support report by member name them", async () => {
    const t = await messagingCustomer();
    const member = await createMemberOf(t.customer.id, "agent");
    const p: Principal = memberPrincipal(t.customer.id, { userId: member.userId, email: member.email, role: "agent" });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Is my order on its way?");
    await sendFromComposer(
      p,
      ComposerBody.parse({ mode: "session", senderId: t.sender.phoneNumber, to: contact, text: "It is" }),
    );
    const entry = await db.conversationMessage.findFirstOrThrow({
      where: { direction: "outbound", conversation: { senderId: t.sender.id, contactPhoneNumber: contact } },
    });
    expect(entry).toMatchObject({ sentBy: "dashboard", sentByLabel: member.email });
    const today = new Date().toISOString().slice(0, 10);
    const res = await call("GET", "/api/v3/reports/support", {
      token: t.globalToken,
      query: { dateFrom: today, dateTo: today, timeZone: "UTC", groupBy: "member", memberId: member.email },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.groups.map((g: { key: string }) => g.key)).toEqual([member.email]);
    expect(res.body.data.totals).toMatchObject({ conversations: 1, outbound: 1 });
  });
});

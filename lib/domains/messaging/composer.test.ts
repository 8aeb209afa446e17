// The dashboard composer goes through the same send service and checks as the API.
import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/domains/auth/principal";
import { addToBlacklist } from "@/lib/domains/contacts/blacklist";
import { memberPrincipal } from "@/test/member-fixtures";
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
});

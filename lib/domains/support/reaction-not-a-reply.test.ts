// The business's reaction answers nothing (docs/reports.md "Definitions"): a 👍 on the contact's
// message through the API is no person's reply, so it records no response, keeps the period
// waiting and the first response due; the text reply after it is the first response.
import { expect, it } from "vitest";
import { db } from "@/lib/db";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";

it("a reaction through the API is no first response; the reply after it is", async () => {
  const t = await messagingCustomer();
  const policy = await call("POST", "/api/v3/sla-policies", {
    token: t.globalToken,
    body: { policy: { name: "Everyone", firstResponseMinutes: 30 } },
  });
  expect(policy.status, JSON.stringify(policy.body)).toBe(201);
  const contact = uniquePhone();
  const theirs = await contactWrites(t.sender, contact, "Is it in stock?");
  const entry = await db.conversationMessage.findFirstOrThrow({ where: { providerMessageId: theirs } });
  const conversationUid = entry.conversationId;
  const sla = async () => {
    const res = await call("GET", `/api/v3/conversations/${conversationUid}`, { token: t.globalToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { firstResponseSeconds: number | null; sla: { firstResponseDueAt: string | null } };
  };
  const due = (await sla()).sla.firstResponseDueAt;
  expect(due).not.toBeNull();

  const reaction = await call("POST", `/api/v3/conversations/${conversationUid}/messages`, {
    token: t.globalToken,
    body: { message: { type: "reaction", reaction: { messageId: entry.id, emoji: "👍" } } },
  });
  expect(reaction.status, JSON.stringify(reaction.body)).toBe(200);
  expect(await sla()).toMatchObject({ firstResponseSeconds: null, sla: { firstResponseDueAt: due } });
  expect(await db.supportResponse.count({ where: { period: { conversationId: conversationUid } } })).toBe(0);
  const [waiting] = await db.supportPeriod.findMany({ where: { conversationId: conversationUid } });
  expect(waiting).toMatchObject({ firstResponseAt: null, firstResponder: null });
  expect(waiting?.waitingSince).not.toBeNull();

  const reply = await call("POST", `/api/v3/conversations/${conversationUid}/messages`, {
    token: t.globalToken,
    body: { message: { type: "text", text: { body: "Yes, it is" } } },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const answered = await sla();
  expect(answered.firstResponseSeconds).not.toBeNull();
  expect(answered.sla.firstResponseDueAt).toBeNull();
  expect(await db.supportResponse.count({ where: { period: { conversationId: conversationUid } } })).toBe(1);
});

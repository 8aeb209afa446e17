// Renaming and removing senders through the real router (docs/messaging.md "Senders"): a
// sender without history is deleted; one with history is deactivated (it sends no more, is no
// longer the default, and its conversations stay); the default moves to another sender.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer } from "@/test/factory";

recordApiAnswers();

describe("POST /senders/{senderId}/rename", () => {
  it("renames a sender and clears the name with null; another account's sender is not found", async () => {
    const t = await createTestCustomer();
    const path = `/api/v3/senders/${encodeURIComponent(t.otherSender.phoneNumber)}/rename`;
    const res = await call("POST", path, { token: t.globalToken, body: { sender: { displayName: " Support line " } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ phoneNumber: t.otherSender.phoneNumber, displayName: "Support line" });
    const cleared = await call("POST", path, { token: t.globalToken, body: { sender: { displayName: null } } });
    expect(cleared.body.data.displayName).toBeNull();

    const other = await createTestCustomer();
    const foreign = await call("POST", `/api/v3/senders/${encodeURIComponent(other.sender.phoneNumber)}/rename`, {
      token: t.globalToken,
      body: { sender: { displayName: "Mine now" } },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("SENDER_NOT_FOUND");
    expect((await db.sender.findUniqueOrThrow({ where: { id: other.sender.id } })).displayName).toBeNull();

    const scoped = await call("POST", path, { token: t.scopedToken, body: { sender: { displayName: "x" } } });
    expect(scoped.status).toBe(403);
  });
});

describe("POST /senders/{senderId}/remove", () => {
  it("deletes a sender without history", async () => {
    const t = await createTestCustomer();
    const res = await call("POST", `/api/v3/senders/${encodeURIComponent(t.otherSender.phoneNumber)}/remove`, {
      token: t.globalToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe("deleted");
    expect(await db.sender.findUnique({ where: { id: t.otherSender.id } })).toBeNull();
    const again = await call("POST", `/api/v3/senders/${encodeURIComponent(t.otherSender.phoneNumber)}/remove`, {
      token: t.globalToken,
    });
    expect(again.status).toBe(404);
    expect(again.body.error_code).toBe("SENDER_NOT_FOUND");
  });

  it("deactivates the default sender with history: conversations stay, sends refused, the default moves", async () => {
    const t = await createTestCustomer();
    const conversation = await db.conversation.create({
      data: {
        id: `conv_rm${Date.now()}`,
        customerId: t.customer.id,
        senderId: t.sender.id,
        contactPhoneNumber: "+14155550177",
        lastMessageAt: new Date(),
      },
    });
    const res = await call("POST", `/api/v3/senders/${encodeURIComponent(t.sender.phoneNumber)}/remove`, {
      token: t.globalToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      outcome: "deactivated",
      sender: { phoneNumber: t.sender.phoneNumber, isDefault: false, status: "DISCONNECTED" },
    });
    expect(res.body.data.sender.deactivatedAt).toEqual(expect.any(String));
    expect(await db.conversation.findUnique({ where: { id: conversation.id } })).not.toBeNull();

    const list = await call("GET", "/api/v3/senders", { token: t.globalToken });
    const senders = list.body.data.senders as { phoneNumber: string; isDefault: boolean }[];
    expect(senders[0]).toMatchObject({ phoneNumber: t.otherSender.phoneNumber, isDefault: true });
    expect(senders.at(-1)?.phoneNumber).toBe(t.sender.phoneNumber);

    const send = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { senderId: t.sender.phoneNumber, to: "+14155550177", type: "text", text: "still there?" },
    });
    expect(send.status, JSON.stringify(send.body)).toBe(409);
    expect(send.body.error_code).toBe("SENDER_DISCONNECTED");
    expect(send.body.message).toContain("was removed");

    const makeDefault = await call("POST", `/api/v3/senders/${encodeURIComponent(t.sender.phoneNumber)}/default`, {
      token: t.globalToken,
    });
    expect(makeDefault.status).toBe(400);

    // Added again, it comes back with its history.
    const again = await call("POST", "/api/v3/senders", {
      token: t.globalToken,
      body: { sender: { phoneNumber: t.sender.phoneNumber } },
    });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ status: "CONNECTED", deactivatedAt: null });
  });
});

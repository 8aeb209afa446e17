// Opt-out and opt-in by inbound keyword, and the blacklist routes (docs/conversations.md).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call } from "@/test/factory";
import { HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { applyOptKeywords, keywordAction, normalizeKeyword } from "./opt-out";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const defaults = { optOutKeywords: [], optInKeywords: [] };
const templateBody = (to: string, senderId?: string) => ({
  to,
  senderId,
  template: { name: "order_update", language: "en", components: HELLO_PARAMS },
});

describe("keywords", () => {
  it("match the whole message, trimmed, case- and accent-insensitive", () => {
    for (const text of [
      "STOP",
      " stop ",
      "Stop.",
      "unsubscribe",
      "StopAll",
      "cancel",
      "END",
      "quit!",
      "Arrêt",
      "BAJA",
    ]) {
      expect(keywordAction(text, defaults), text).toBe("opt-out");
    }
    for (const text of ["start", "UNSTOP", " Start! "]) expect(keywordAction(text, defaults), text).toBe("opt-in");
    for (const text of ["please stop", "stop it", "the end", "", "startup"]) {
      expect(keywordAction(text, defaults), text).toBeNull();
    }
    expect(normalizeKeyword("  ¡Alto!  ")).toBe("ALTO");
  });

  it("a sender's own keywords replace the defaults", () => {
    const config = { optOutKeywords: ["basta ya"], optInKeywords: ["volver"] };
    expect(keywordAction("Basta ya", config)).toBe("opt-out");
    expect(keywordAction("stop", config)).toBeNull();
    expect(keywordAction("VOLVER", config)).toBe("opt-in");
  });
});

describe("opt-out and opt-in by inbound keyword", () => {
  it("STOP blacklists the contact for that sender (next send RECIPIENT_BLACKLISTED), START takes it off; both show in the thread", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    await contactWrites(t.sender, from, "hello");
    const stopId = await contactWrites(t.sender, from, " Stop ");
    const entry = await db.blacklistEntry.findFirst({ where: { senderId: t.sender.id, phoneNumber: from } });
    expect(entry).toMatchObject({ reason: "opt-out", source: "opt-out", inboundMessageId: stopId });

    const refused = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(from) });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("RECIPIENT_BLACKLISTED");
    // Only that sender's list: the other sender still reaches the contact.
    const other = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: templateBody(from, t.otherSender.phoneNumber),
    });
    expect(other.status).toBe(200);

    const list = await call("GET", "/api/v3/conversations", {
      token: t.globalToken,
      query: { senderId: t.sender.phoneNumber },
    });
    const c = list.body.data.conversations[0];
    expect(c).toMatchObject({ contactPhoneNumber: from, blacklisted: true });
    const reply = await call("POST", `/api/v3/conversations/${c.conversationUid}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "ok" } } },
    });
    expect(reply.body.error_code).toBe("RECIPIENT_BLACKLISTED");

    const blacklist = await call("GET", "/api/v3/blacklist", { token: t.scopedToken });
    expect(blacklist.body.data.entries).toEqual([
      expect.objectContaining({ phoneNumber: from, reason: "opt-out", source: "opt-out", inboundMessageId: stopId }),
    ]);

    // Provider timestamps are whole seconds, and a message processed after its second has passed
    // keeps that second's start (lib/ingest/inbound.ts): START stamped within the
    // opt-out note's second could sort before the note on a loaded machine. A person writes START
    // later; the test stamps it with the next second (arriving early, it takes its arrival time).
    await contactWrites(t.sender, from, "START", { at: new Date((Math.floor(Date.now() / 1000) + 1) * 1000) });
    expect(await db.blacklistEntry.count({ where: { senderId: t.sender.id, phoneNumber: from } })).toBe(0);
    const again = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(from) });
    expect(again.status).toBe(200);

    const thread = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, { token: t.globalToken });
    const notes = thread.body.data.messages.filter((m: { direction: string }) => m.direction === "system");
    expect(notes.map((n: { content: { system: { event: string } } }) => n.content.system.event)).toEqual([
      "opt_in",
      "opt_out",
    ]);
    expect(notes[1]).toMatchObject({ type: "system", status: "note", sentBy: "system" });
    // Newest first: the template, the opt-in note, START, the opt-out note, STOP, hello.
    expect(thread.body.data.messages.map((m: { direction: string }) => m.direction)).toEqual([
      "outbound",
      "system",
      "inbound",
      "system",
      "inbound",
      "inbound",
    ]);
  });

  it("START does not lift an entry the business added itself; a sender's own keywords apply", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    const added = await call("POST", "/api/v3/blacklist", {
      token: t.globalToken,
      body: { phoneNumber: from, reason: "abuse" },
    });
    expect(added.status).toBe(200);
    await contactWrites(t.sender, from, "start");
    expect(await db.blacklistEntry.count({ where: { senderId: t.sender.id, phoneNumber: from } })).toBe(1);

    await db.sender.update({ where: { id: t.otherSender.id }, data: { optOutKeywords: ["BASTA YA"] } });
    const other = recipient();
    await contactWrites(t.otherSender, other, "stop");
    expect(await db.blacklistEntry.count({ where: { senderId: t.otherSender.id, phoneNumber: other } })).toBe(0);
    await contactWrites(t.otherSender, other, "basta ya");
    expect(await db.blacklistEntry.count({ where: { senderId: t.otherSender.id, phoneNumber: other } })).toBe(1);
    expect(getSimulator()?.acceptedTo(other)).toHaveLength(0);
  });
});

describe("the note's place in the thread", () => {
  it("follows its message processed after its second, whose place is later than the batch's start", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    await contactWrites(t.sender, from, "hello");
    const c = await db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: from } });
    const threadAt = await db.$transaction(async (tx) => {
      // The batch's transaction began within the message's second; the message, processed after
      // it, sits at that second's last moment (lib/ingest/thread-time.ts), after the start.
      const [started] = await tx.$queryRaw<{ at: Date }[]>`SELECT (now() AT TIME ZONE 'UTC') AS at`;
      const place = new Date((started?.at.getTime() ?? 0) + 500);
      await applyOptKeywords(tx, [
        {
          sender: t.sender,
          id: "wamid.late-stop",
          contact: from,
          at: new Date(place.getTime() - 999),
          threadAt: place,
          type: "text",
          body: { type: "text", text: { body: "STOP" } },
          conversationId: c.id,
        },
      ]);
      return place;
    });
    const note = await db.conversationMessage.findFirstOrThrow({
      where: { conversationId: c.id, direction: "system" },
    });
    expect(note.createdAt.getTime()).toBeGreaterThan(threadAt.getTime());
  });
});

describe("POST /blacklist and /blacklist/remove", () => {
  it("add (idempotent) and remove for the resolved sender, on v2 and v3", async () => {
    const t = await messagingCustomer();
    const phone = recipient();
    for (const v of ["v2", "v3"]) {
      const res = await call("POST", `/api/${v}/blacklist`, { token: t.globalToken, body: { phoneNumber: phone } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ phoneNumber: phone, reason: null, source: "api" });
    }
    // International only (the one phone parser): the digits without "+" are refused, not guessed.
    const noPlus = await call("POST", "/api/v3/blacklist", {
      token: t.globalToken,
      body: { phoneNumber: phone.slice(1), reason: "asked by phone" },
    });
    expect(noPlus.status).toBe(400);
    expect(noPlus.body.message).toContain("is not an international number");
    const withReason = await call("POST", "/api/v3/blacklist", {
      token: t.globalToken,
      body: { phoneNumber: ` ${phone.slice(0, 2)} ${phone.slice(2)}`, reason: "asked by phone" },
    });
    expect(withReason.body.data).toMatchObject({ phoneNumber: phone, reason: "asked by phone" });
    expect(await db.blacklistEntry.count({ where: { customerId: t.customer.id } })).toBe(1);
    const refused = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(phone) });
    expect(refused.body.error_code).toBe("RECIPIENT_BLACKLISTED");

    const removed = await call("POST", "/api/v2/blacklist/remove", {
      token: t.globalToken,
      body: { phoneNumber: phone },
    });
    expect(removed.body.data).toEqual({ senderId: t.sender.phoneNumber, phoneNumber: phone, removed: true });
    const twice = await call("POST", "/api/v3/blacklist/remove", {
      token: t.globalToken,
      body: { phoneNumber: phone },
    });
    expect(twice.status).toBe(200);
    expect(twice.body.data.removed).toBe(false);

    const bad = await call("POST", "/api/v3/blacklist", { token: t.globalToken, body: { phoneNumber: "12" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields[0].path).toBe("body.phoneNumber");
    const missing = await call("POST", "/api/v3/blacklist/remove", { token: t.globalToken, body: {} });
    expect(missing.status).toBe(400);
  });

  it("is sender-scoped and tenant-isolated", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const phone = recipient();
    const onOther = await call("POST", "/api/v3/blacklist", {
      token: t.globalToken,
      body: { senderId: t.otherSender.phoneNumber, phoneNumber: phone },
    });
    expect(onOther.status).toBe(200);
    expect(await db.blacklistEntry.findFirst({ where: { phoneNumber: phone } })).toMatchObject({
      senderId: t.otherSender.id,
    });
    // The scoped token (t.sender) may not act on the other sender.
    const scoped = await call("POST", "/api/v3/blacklist/remove", {
      token: t.scopedToken,
      body: { senderId: t.otherSender.phoneNumber, phoneNumber: phone },
    });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    // Another customer cannot name this customer's sender, nor remove its entries.
    const foreign = await call("POST", "/api/v3/blacklist/remove", {
      token: stranger.globalToken,
      body: { senderId: t.otherSender.phoneNumber, phoneNumber: phone },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("SENDER_NOT_FOUND");
    const theirOwn = await call("POST", "/api/v3/blacklist/remove", {
      token: stranger.globalToken,
      body: { phoneNumber: phone },
    });
    expect(theirOwn.body.data.removed).toBe(false);
    const foreignAdd = await call("POST", "/api/v3/blacklist", {
      token: stranger.globalToken,
      body: { senderId: t.sender.phoneNumber, phoneNumber: phone },
    });
    expect(foreignAdd.body.error_code).toBe("SENDER_NOT_FOUND");
    expect(await db.blacklistEntry.count({ where: { phoneNumber: phone } })).toBe(1);
    const theirList = await call("GET", "/api/v3/blacklist", { token: stranger.globalToken });
    expect(theirList.body.data.entries).toEqual([]);
  });
});

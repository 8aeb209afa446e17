// Taps on buttons and quoted replies from the contact, through the real callback endpoint and
// processor: the entry keeps the message it answers (only of its own conversation), the
// thread and message.inbound.* carry the reply and the quote, a replayed callback adds nothing.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import {
  type InboundSpec,
  inboundReactionChange,
  inboundReplyChange,
  inboundTextChange,
  inboundWamid,
} from "@/lib/domains/provider/simulator-inbound";
import type { Sender } from "@/lib/domains/senders/service";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites, drainCallbacks, postSigned } from "@/test/conversation-fixtures";
import { call } from "@/test/factory";
import { engagedRecipient, messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

const who = (s: Sender) => ({ phoneNumberId: s.phoneNumberId ?? "", phoneNumber: s.phoneNumber, wabaId: s.wabaId });

async function post(body: string): Promise<void> {
  expect(await postSigned(body)).toBe(200);
  await drainCallbacks();
}
const tap = (sender: Sender, spec: Omit<InboundSpec, "text"> & Parameters<typeof inboundReplyChange>[1]) =>
  envelopeFor([inboundReplyChange(who(sender), spec)]);
const quote = (sender: Sender, spec: InboundSpec) => envelopeFor([inboundTextChange(who(sender), spec)]);
const react = (sender: Sender, spec: Parameters<typeof inboundReactionChange>[1]) =>
  envelopeFor([inboundReactionChange(who(sender), spec)]);

async function entry(providerMessageId: string) {
  for (let i = 0; i < 100; i++) {
    const row = await db.conversationMessage.findUnique({ where: { providerMessageId } });
    if (row) return row;
    await drainCallbacks();
  }
  throw new Error(`${providerMessageId} was not applied`);
}

async function sendButtons(token: string, to: string, senderId?: string) {
  const res = await call("POST", "/api/v3/chat", {
    token,
    body: {
      ...(senderId ? { senderId } : {}),
      to,
      type: "buttons",
      interactive: {
        body: "Track or talk?",
        buttons: [
          { id: "track", title: "Track my order" },
          { id: "agent", title: "Talk to a person" },
        ],
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { messageUid: string; messageId: string };
}

describe("a tap on our buttons", () => {
  it("keeps the reply and the message tapped; the thread and the event carry both; a replay adds nothing", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const sent = await sendButtons(t.globalToken, to);
    const id = inboundWamid();
    const body = tap(t.sender, {
      from: to,
      id,
      context: sent.messageId,
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
    });
    await post(body);
    await post(body);
    const row = await entry(id);
    expect(await db.conversationMessage.count({ where: { providerMessageId: id } })).toBe(1);
    const conversationUid = row.conversationId;
    const thread = await call("GET", `/api/v3/conversations/${conversationUid}/messages`, { token: t.globalToken });
    expect(thread.status).toBe(200);
    const items = thread.body.data.items as Record<string, unknown>[];
    const ours = items.find((m) => m.providerMessageId === sent.messageId);
    const theirs = items.find((m) => m.providerMessageId === id);
    expect(ours).toMatchObject({
      direction: "outbound",
      reply: null,
      interactive: {
        type: "buttons",
        body: "Track or talk?",
        buttons: [
          { id: "track", title: "Track my order" },
          { id: "agent", title: "Talk to a person" },
        ],
      },
    });
    expect(theirs).toMatchObject({
      direction: "inbound",
      interactive: null,
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      replyTo: { messageId: ours?.messageUid, providerMessageId: sent.messageId, preview: "Track or talk?" },
    });
    const events = await db.webhookEvent.findMany({ where: { dedupeKey: `inbound:${id}` } });
    expect(events).toHaveLength(1);
    const [event] = events;
    if (!event) throw new Error("no event");
    expect(event.type).toBe("message.inbound.interactive");
    expect((event.payload as { data: unknown }).data).toMatchObject({
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      context: { id: sent.messageId, messageId: ours?.messageUid, providerMessageId: sent.messageId },
    });
  });

  it("keeps a list pick with its description", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const id = inboundWamid();
    await post(
      tap(t.sender, {
        from: to,
        id,
        reply: { type: "list_reply", id: "r2", title: "Billing", description: "Invoices and refunds" },
      }),
    );
    const row = await entry(id);
    const thread = await call("GET", `/api/v2/conversations/${row.conversationId}/messages`, { token: t.globalToken });
    const theirs = (thread.body.data.items as Record<string, unknown>[]).find((m) => m.providerMessageId === id);
    expect(theirs).toMatchObject({
      reply: { type: "list_reply", id: "r2", title: "Billing", description: "Invoices and refunds" },
      replyTo: null,
    });
  });
});

describe("a contact's quoted reply", () => {
  it("resolves a quote of our message and of their own, and only inside the conversation", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const sent = await sendButtons(t.globalToken, to);
    // Their own earlier message, quoted.
    const first = inboundWamid();
    await post(quote(t.sender, { from: to, id: first, text: "Which one is mine?" }));
    const quoted = inboundWamid();
    await post(quote(t.sender, { from: to, id: quoted, text: "this one", context: first }));
    const own = await entry(quoted);
    const firstRow = await entry(first);
    expect(own.replyTo).toEqual({ messageId: firstRow.id, providerMessageId: first, preview: "Which one is mine?" });

    // Another contact of the same sender, and another account, quoting this conversation's messages:
    // the quote stays unknown, the preview never crosses.
    const stranger = await engagedRecipient(t.sender);
    const cross = inboundWamid();
    await post(quote(t.sender, { from: stranger, id: cross, text: "yes", context: sent.messageId }));
    expect((await entry(cross)).replyTo).toEqual({
      messageId: null,
      providerMessageId: sent.messageId,
      preview: null,
    });
    const other = await messagingCustomer();
    const otherTo = await engagedRecipient(other.sender);
    const foreign = inboundWamid();
    await post(quote(other.sender, { from: otherTo, id: foreign, text: "yes", context: first }));
    expect((await entry(foreign)).replyTo).toEqual({ messageId: null, providerMessageId: first, preview: null });
    const event = await db.webhookEvent.findFirstOrThrow({ where: { dedupeKey: `inbound:${foreign}` } });
    expect((event.payload as { data: { context: unknown } }).data.context).toMatchObject({
      id: first,
      messageId: null,
      providerMessageId: first,
    });

    const thread = await call("GET", `/api/v3/conversations/${own.conversationId}/messages`, { token: t.globalToken });
    const item = (thread.body.data.items as Record<string, unknown>[]).find((m) => m.providerMessageId === quoted);
    expect(item?.replyTo).toEqual({ messageId: firstRow.id, providerMessageId: first, preview: "Which one is mine?" });
  });
});

type Item = Record<string, unknown> & { reactions: { by: string; emoji: string; at: string }[] };

async function threadOf(token: string, conversationUid: string): Promise<Item[]> {
  const res = await call("GET", `/api/v3/conversations/${conversationUid}/messages`, { token });
  expect(res.status).toBe(200);
  return res.body.data.items as Item[];
}
/** Posts a callback of one message and waits until its entry is stored (and its reaction applied with it). */
async function applied(body: string): Promise<void> {
  await post(body);
  const id = (JSON.parse(body) as { entry: { changes: { value: { messages: { id: string }[] } }[] }[] }).entry[0]
    ?.changes[0]?.value.messages[0]?.id;
  await entry(id ?? "");
}
const emojis = (item: Item | undefined) => item?.reactions.map((r) => `${r.by}:${r.emoji}`);

describe("reactions", () => {
  it("a contact's reaction attaches to our message: added, replaced, removed; a replay or an older one changes nothing", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const chat = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to, text: "Your order shipped" } });
    expect(chat.status).toBe(200);
    const sent = chat.body.data as { messageUid: string; messageId: string };
    const first = inboundWamid();
    const body = react(t.sender, { from: to, id: first, messageId: sent.messageId, emoji: "👍" });
    await post(body);
    await post(body);
    const row = await entry(first);
    let items = await threadOf(t.globalToken, row.conversationId);
    const ours = () => items.find((m) => m.messageUid === sent.messageUid);
    expect(emojis(ours())).toEqual(["contact:👍"]);
    // Not a line of the thread, and counted once.
    expect(items.some((m) => m.providerMessageId === first)).toBe(false);
    expect(await db.conversationMessage.count({ where: { providerMessageId: first } })).toBe(1);
    const conversation = await call("GET", `/api/v3/conversations/${row.conversationId}`, { token: t.globalToken });
    expect(conversation.body.data.lastMessagePreview).toBe("Reacted 👍 to: Your order shipped");
    const events = await db.webhookEvent.findMany({ where: { dedupeKey: `inbound:${first}` } });
    expect(events.map((e) => e.type)).toEqual(["message.inbound.reaction"]);
    expect((events[0]?.payload as { data?: unknown } | undefined)?.data).toMatchObject({
      reaction: { message_id: sent.messageId, emoji: "👍", messageId: sent.messageUid },
      context: null,
    });

    await applied(react(t.sender, { from: to, messageId: sent.messageId, emoji: "❤️" }));
    items = await threadOf(t.globalToken, row.conversationId);
    expect(emojis(ours())).toEqual(["contact:❤️"]);
    // Made a minute earlier, arriving late: the latest stays.
    const late = new Date(Date.now() - 60_000);
    await applied(react(t.sender, { from: to, messageId: sent.messageId, emoji: "😮", at: late }));
    items = await threadOf(t.globalToken, row.conversationId);
    expect(emojis(ours())).toEqual(["contact:❤️"]);
    await applied(react(t.sender, { from: to, messageId: sent.messageId, emoji: "" }));
    items = await threadOf(t.globalToken, row.conversationId);
    expect(ours()?.reactions).toEqual([]);
    expect(items.filter((m) => m.type === "reaction")).toEqual([]);
  });

  it("a contact's reaction is no request: it starts no wait after a person's reply and reopens no closed conversation; a message does", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const asked = await contactWrites(t.sender, to, "Where is my order?");
    const { conversationId } = await entry(asked);
    const periods = () => db.supportPeriod.findMany({ where: { conversationId }, orderBy: { startedAt: "asc" } });
    const chat = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to, text: "It shipped today" } });
    expect(chat.status).toBe(200);
    const sent = chat.body.data as { messageId: string };
    const [answered] = await periods();
    expect(answered).toMatchObject({ waitingSince: null, firstResponder: "api" });

    // A thumbs-up to the answer: shown on it, the conversation unread, but the period is as it
    // was (nothing waits, no inbound counted).
    await applied(react(t.sender, { from: to, messageId: sent.messageId, emoji: "👍" }));
    expect(await periods()).toEqual([answered]);
    expect(await db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ unread: true });

    // Closed, then a heart: still closed, no new period.
    const closed = await call("POST", `/api/v3/conversations/${conversationId}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status).toBe(200);
    await applied(react(t.sender, { from: to, messageId: sent.messageId, emoji: "❤️" }));
    expect(await db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({
      status: "CLOSED",
    });
    expect(await periods()).toHaveLength(1);

    // A message reopens it: a new period, waiting from it.
    const again = await contactWrites(t.sender, to, "It never arrived");
    await entry(again);
    expect(await db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({
      status: "OPEN",
    });
    const [, reopened] = await periods();
    expect(reopened).toMatchObject({ reopened: true, inboundCount: 1, firstResponseAt: null });
    expect(reopened?.waitingSince).toEqual(reopened?.startedAt);
  });

  it("a reaction to a message of another conversation or account attaches to nothing and stays a line", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "mine", { id: theirs });
    const stranger = await engagedRecipient(t.sender);
    const other = await messagingCustomer();
    const otherTo = await engagedRecipient(other.sender);
    const cross = inboundWamid();
    const foreign = inboundWamid();
    await applied(react(t.sender, { from: stranger, id: cross, messageId: theirs, emoji: "👍" }));
    await applied(react(other.sender, { from: otherTo, id: foreign, messageId: theirs, emoji: "👍" }));
    const target = await entry(theirs);
    expect(target.reactions).toBeNull();
    for (const [id, token] of [
      [cross, t.globalToken],
      [foreign, other.globalToken],
    ] as const) {
      const row = await entry(id);
      const line = (await threadOf(token, row.conversationId)).find((m) => m.providerMessageId === id);
      expect(line).toMatchObject({ type: "reaction", replyTo: { messageId: null, providerMessageId: theirs } });
    }
  });

  it("our reaction: added, replaced and removed on the contact's message beside theirs; not billed, no window needed", async () => {
    const t = await messagingCustomer({ credit: 0 });
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "Is it in stock?", { id: theirs });
    const row = await entry(theirs);
    const conversationUid = row.conversationId;
    // Both sides on one message: the contact reacts to their own message too.
    await applied(react(t.sender, { from: to, messageId: theirs, emoji: "🙏" }));
    // The window closed two days ago: a reaction still goes.
    const past = new Date(Date.now() - 48 * 3600_000);
    await db.conversation.update({
      where: { id: conversationUid },
      data: { lastInboundAt: past, windowExpiresAt: new Date(past.getTime() + 24 * 3600_000) },
    });
    const reply = await call("POST", `/api/v3/conversations/${conversationUid}/messages`, {
      token: t.globalToken,
      body: { message: { type: "reaction", reaction: { messageId: row.id, emoji: "👍" } } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const message = await db.message.findUniqueOrThrow({ where: { id: reply.body.data.messageUid } });
    expect(message).toMatchObject({ type: "reaction", pricingCategory: "service" });
    expect((message.payload as { reaction: unknown }).reaction).toEqual({ message_id: theirs, emoji: "👍" });
    let items = await threadOf(t.globalToken, conversationUid);
    const target = () => items.find((m) => m.messageUid === row.id);
    expect(emojis(target())).toEqual(["contact:🙏", "business:👍"]);
    expect(items.some((m) => m.type === "reaction")).toBe(false);

    const chat = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, type: "reaction", reaction: { messageId: row.id, emoji: "🎉" } },
    });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    items = await threadOf(t.globalToken, conversationUid);
    expect(emojis(target())).toEqual(["contact:🙏", "business:🎉"]);
    const removed = await call("POST", "/api/v2/chat", {
      token: t.globalToken,
      body: { to, type: "reaction", reaction: { messageId: row.id, emoji: "" } },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    items = await threadOf(t.globalToken, conversationUid);
    expect(emojis(target())).toEqual(["contact:🙏"]);
    await drainCallbacks();
    expect(await db.billingTransaction.count({ where: { customerId: t.customer.id, type: "debit" } })).toBe(0);
  });

  it("reacts to a message 29 days old (the limit is 30 days)", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "a while ago", { id: theirs });
    const row = await entry(theirs);
    await db.conversationMessage.update({
      where: { id: row.id },
      data: { createdAt: new Date(Date.now() - 29 * 24 * 3600_000) },
    });
    const res = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, type: "reaction", reaction: { messageId: row.id, emoji: "👍" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const message = await db.message.findUniqueOrThrow({ where: { id: res.body.data.messageUid } });
    expect((message.payload as { reaction: unknown }).reaction).toEqual({ message_id: theirs, emoji: "👍" });
    const items = await threadOf(t.globalToken, row.conversationId);
    expect(emojis(items.find((m) => m.messageUid === row.id))).toEqual(["business:👍"]);
  });

  it("refuses a message older than 30 days, of another conversation or account, and no emoji", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "old", { id: theirs });
    const row = await entry(theirs);
    const chat = (token: string, body: Record<string, unknown>) => call("POST", "/api/v3/chat", { token, body });

    await db.conversationMessage.update({
      where: { id: row.id },
      data: { createdAt: new Date(Date.now() - 31 * 24 * 3600_000) },
    });
    const old = await chat(t.globalToken, { to, type: "reaction", reaction: { messageId: row.id, emoji: "👍" } });
    expect(old.status).toBe(400);
    expect(old.body.error_code).toBe("REACTION_TOO_OLD");
    expect(old.body.details.messageId).toBe(row.id);

    // The message is of another contact's conversation, and of another account.
    const stranger = await engagedRecipient(t.sender);
    const cross = await chat(t.globalToken, {
      to: stranger,
      type: "reaction",
      reaction: { messageId: row.id, emoji: "👍" },
    });
    expect(cross.status).toBe(400);
    expect(cross.body.error_code).toBe("VALIDATION_FAILED");
    expect(cross.body.details.fields.map((f: { path: string }) => f.path)).toEqual(["body.reaction.messageId"]);
    const other = await messagingCustomer();
    const otherTo = await engagedRecipient(other.sender);
    const otherRow = await entry(
      (await db.conversationMessage.findFirstOrThrow({ where: { customerId: other.customer.id } })).providerMessageId ??
        "",
    );
    const strangerConv = await db.conversation.findFirstOrThrow({ where: { contactPhoneNumber: stranger } });
    const foreign = await call("POST", `/api/v3/conversations/${strangerConv.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "reaction", reaction: { messageId: otherRow.id, emoji: "👍" } } },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.fields.map((f: { path: string }) => f.path)).toEqual([
      "body.message.reaction.messageId",
    ]);
    const otherWay = await chat(other.globalToken, {
      to: otherTo,
      type: "reaction",
      reaction: { messageId: row.id, emoji: "👍" },
    });
    expect(otherWay.body.error_code).toBe("VALIDATION_FAILED");
    const word = await chat(t.globalToken, { to, type: "reaction", reaction: { messageId: row.id, emoji: "yes" } });
    expect(word.body.details.fields.map((f: { path: string }) => f.path)).toEqual(["body.reaction.emoji"]);
    const missing = await chat(t.globalToken, { to, type: "reaction" });
    expect(missing.body.details.fields.map((f: { path: string }) => f.path)).toEqual(["body.reaction"]);
    expect(
      await db.message.count({ where: { customerId: { in: [t.customer.id, other.customer.id] }, type: "reaction" } }),
    ).toBe(0);
  });
});

describe("our quoted replies", () => {
  it("quote a message of the conversation on /chat, a reply and the provider-shaped routes; the provider gets context", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "Which size fits?", { id: theirs });
    const row = await entry(theirs);
    const payloadOf = async (messageUid: string) =>
      (await db.message.findUniqueOrThrow({ where: { id: messageUid } })).payload as Record<string, unknown>;

    const chat = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, text: "The medium one", replyTo: row.id },
    });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    const first = chat.body.data as { messageUid: string; messageId: string };
    expect((await payloadOf(first.messageUid)).context).toEqual({ message_id: theirs });

    const reply = await call("POST", `/api/v2/conversations/${row.conversationId}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "As I said" }, replyTo: first.messageUid } },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect((await payloadOf(reply.body.data.messageUid)).context).toEqual({ message_id: first.messageId });

    const provider = await call("POST", `/api/v3/${t.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: { to, type: "text", text: { body: "Anything else?" }, context: { message_id: theirs } },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(200);

    const items = await threadOf(t.globalToken, row.conversationId);
    const byBody = (body: string) => items.find((m) => (m.content as { text?: { body?: string } }).text?.body === body);
    expect(byBody("The medium one")?.replyTo).toEqual({
      messageId: row.id,
      providerMessageId: theirs,
      preview: "Which size fits?",
    });
    expect(byBody("As I said")?.replyTo).toEqual({
      messageId: first.messageUid,
      providerMessageId: first.messageId,
      preview: "The medium one",
    });
    expect(byBody("Anything else?")?.replyTo).toMatchObject({ messageId: row.id, providerMessageId: theirs });
  });

  it("refuses a message of another conversation or account as VALIDATION_FAILED, and sends nothing", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const stranger = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, stranger, "not yours", { id: theirs });
    const strangers = await entry(theirs);
    const other = await messagingCustomer();
    const otherTo = await engagedRecipient(other.sender);
    const before = await db.message.count({ where: { customerId: { in: [t.customer.id, other.customer.id] } } });
    const paths = (res: { body: { details: { fields: { path: string }[] } } }) =>
      res.body.details.fields.map((f) => f.path);

    const chat = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, text: "hi", replyTo: strangers.id },
    });
    expect(chat.status).toBe(400);
    expect(chat.body.error_code).toBe("VALIDATION_FAILED");
    expect(paths(chat)).toEqual(["body.replyTo"]);
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: other.customer.id, contactPhoneNumber: otherTo },
    });
    const reply = await call("POST", `/api/v3/conversations/${conversation.id}/messages`, {
      token: other.globalToken,
      body: { message: { type: "text", text: { body: "hi" }, replyTo: strangers.id } },
    });
    expect(reply.status).toBe(400);
    expect(paths(reply)).toEqual(["body.message.replyTo"]);
    const provider = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to, type: "text", text: { body: "hi" }, context: { message_id: theirs } },
    });
    expect(provider.status).toBe(400);
    expect(provider.body.error.error_data.error_code).toBe("VALIDATION_FAILED");
    expect(provider.body.error.message).toContain("context.message_id");
    const reaction = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, type: "reaction", reaction: { messageId: strangers.id, emoji: "👍" }, replyTo: strangers.id },
    });
    expect(paths(reaction)).toContain("body.replyTo");
    expect(await db.message.count({ where: { customerId: { in: [t.customer.id, other.customer.id] } } })).toBe(before);
  });
});

describe("two senders of one account", () => {
  // One contact writes to both numbers: two conversations, one per sender. A number-scoped
  // token of the first never reaches the second's messages, and what the contact sends on one
  // number never attaches to a message of the other.
  const paths = (res: { body: { details?: { fields?: { path: string }[] } } }) =>
    res.body.details?.fields?.map((f) => f.path);

  it("a number-scoped token cannot react to, quote or answer with buttons a message of the other sender", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const mineId = inboundWamid();
    await contactWrites(t.sender, to, "On the first number", { id: mineId });
    const mine = await entry(mineId);
    const theirsId = inboundWamid();
    await contactWrites(t.otherSender, to, "On the second number", { id: theirsId });
    const theirs = await entry(theirsId);
    expect(theirs.conversationId).not.toBe(mine.conversationId);
    const otherButtons = await sendButtons(t.globalToken, to, t.otherSender.phoneNumber);
    const before = await db.message.count({ where: { customerId: t.customer.id } });
    const chat = (body: Record<string, unknown>) => call("POST", "/api/v3/chat", { token: t.scopedToken, body });
    const interactive = { body: "Which one?", buttons: [{ id: "a", title: "This one" }] };

    // On its own sender (the token's), naming the other sender's messages: not of this conversation.
    for (const messageId of [theirs.id, otherButtons.messageUid]) {
      const reaction = await chat({ to, type: "reaction", reaction: { messageId, emoji: "👍" } });
      expect(reaction.status, JSON.stringify(reaction.body)).toBe(400);
      expect(reaction.body.error_code).toBe("VALIDATION_FAILED");
      expect(paths(reaction)).toEqual(["body.reaction.messageId"]);
      const quoted = await chat({ to, text: "This one", replyTo: messageId });
      expect(quoted.status).toBe(400);
      expect(paths(quoted)).toEqual(["body.replyTo"]);
      const buttons = await chat({ to, type: "buttons", interactive, replyTo: messageId });
      expect(buttons.status).toBe(400);
      expect(paths(buttons)).toEqual(["body.replyTo"]);
    }
    for (const [message, field] of [
      [{ type: "reaction", reaction: { messageId: theirs.id, emoji: "👍" } }, "body.message.reaction.messageId"],
      [{ type: "text", text: { body: "This one" }, replyTo: theirs.id }, "body.message.replyTo"],
      [{ type: "buttons", interactive, replyTo: otherButtons.messageUid }, "body.message.replyTo"],
    ] as const) {
      const reply = await call("POST", `/api/v3/conversations/${mine.conversationId}/messages`, {
        token: t.scopedToken,
        body: { message },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body.error_code).toBe("VALIDATION_FAILED");
      expect(paths(reply)).toEqual([field]);
    }
    const providerButtons = {
      type: "button",
      body: { text: "Which one?" },
      action: { buttons: [{ type: "reply", reply: { id: "a", title: "This one" } }] },
    };
    for (const [body, message_id] of [
      [{ type: "text", text: { body: "This one" } }, theirsId],
      [{ type: "interactive", interactive: providerButtons }, otherButtons.messageId],
    ] as const) {
      const provider = await call("POST", "/api/v3/messages", {
        token: t.scopedToken,
        body: { to, ...body, context: { message_id } },
      });
      expect(provider.status, JSON.stringify(provider.body)).toBe(400);
      expect(provider.body.error.error_data.error_code).toBe("VALIDATION_FAILED");
      expect(provider.body.error.message).toContain("context.message_id");
    }

    // Naming the other sender, or its conversation: refused before any message is looked at.
    const named = await chat({
      senderId: t.otherSender.phoneNumber,
      to,
      type: "reaction",
      reaction: { messageId: theirs.id, emoji: "👍" },
    });
    expect(named.status).toBe(403);
    expect(named.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    const byPath = await call("POST", `/api/v3/${t.otherSender.phoneNumberId}/messages`, {
      token: t.scopedToken,
      body: { to, type: "text", text: { body: "This one" }, context: { message_id: theirsId } },
    });
    expect(byPath.status).toBe(403);
    for (const message of [
      { type: "reaction", reaction: { messageId: theirs.id, emoji: "👍" } },
      { type: "text", text: { body: "This one" }, replyTo: theirs.id },
      { type: "buttons", interactive },
    ]) {
      const reply = await call("POST", `/api/v3/conversations/${theirs.conversationId}/messages`, {
        token: t.scopedToken,
        body: { message },
      });
      expect(reply.status).toBe(404);
      expect(reply.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    }
    expect(await db.message.count({ where: { customerId: t.customer.id } })).toBe(before);
    expect((await entry(theirsId)).reactions).toBeNull();

    // The same messages are reachable from their own sender: the refusals above were the sender's.
    const own = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        senderId: t.otherSender.phoneNumber,
        to,
        type: "reaction",
        reaction: { messageId: theirs.id, emoji: "👍" },
      },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const quotedOwn = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { senderId: t.otherSender.phoneNumber, to, type: "buttons", interactive, replyTo: otherButtons.messageUid },
    });
    expect(quotedOwn.status, JSON.stringify(quotedOwn.body)).toBe(200);
    const items = await threadOf(t.globalToken, theirs.conversationId);
    expect(emojis(items.find((m) => m.messageUid === theirs.id))).toEqual(["business:👍"]);
    const first = await threadOf(t.globalToken, mine.conversationId);
    expect(emojis(first.find((m) => m.messageUid === mine.id))).toEqual([]);
  });

  it("a contact's tap, quote and reaction on one sender naming a message of the other sender's conversation attach to nothing", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const mineId = inboundWamid();
    await contactWrites(t.sender, to, "Asked on the first number", { id: mineId });
    const ours = await sendButtons(t.globalToken, to);
    const tapped = inboundWamid();
    const quoted = inboundWamid();
    const reacted = inboundWamid();
    await post(
      tap(t.otherSender, {
        from: to,
        id: tapped,
        context: ours.messageId,
        reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      }),
    );
    await post(quote(t.otherSender, { from: to, id: quoted, text: "that one", context: mineId }));
    await applied(react(t.otherSender, { from: to, id: reacted, messageId: ours.messageId, emoji: "👍" }));

    const rows = await Promise.all([tapped, quoted, reacted].map(entry));
    const first = (await entry(mineId)).conversationId;
    for (const row of rows) expect(row.conversationId).not.toBe(first);
    expect(rows.map((r) => r.replyTo)).toEqual([
      { messageId: null, providerMessageId: ours.messageId, preview: null },
      { messageId: null, providerMessageId: mineId, preview: null },
      { messageId: null, providerMessageId: ours.messageId, preview: null },
    ]);
    // The first sender's thread: the buttons unanswered and without a reaction, nothing added.
    const items = await threadOf(t.globalToken, first);
    const buttons = items.find((m) => m.providerMessageId === ours.messageId);
    expect(buttons?.reactions).toEqual([]);
    expect(items.map((m) => m.providerMessageId)).toEqual(expect.not.arrayContaining([tapped, quoted, reacted]));
    expect(items.some((m) => (m.replyTo as { messageId?: string } | null)?.messageId)).toBe(false);
    // On the second sender's thread the reaction stays a line; the events name no message of ours.
    const second = await threadOf(t.globalToken, rows[2]?.conversationId ?? "");
    expect(second.find((m) => m.providerMessageId === reacted)).toMatchObject({ type: "reaction" });
    for (const id of [tapped, quoted]) {
      const event = await db.webhookEvent.findFirstOrThrow({ where: { dedupeKey: `inbound:${id}` } });
      expect((event.payload as { data: { context: unknown } }).data.context).toMatchObject({ messageId: null });
    }
    const reaction = await db.webhookEvent.findFirstOrThrow({ where: { dedupeKey: `inbound:${reacted}` } });
    expect((reaction.payload as { data: { reaction: unknown } }).data.reaction).toMatchObject({
      message_id: ours.messageId,
      messageId: null,
    });

    // The same tap on the first sender answers the buttons: the refusals above were the sender's.
    const own = inboundWamid();
    await post(
      tap(t.sender, {
        from: to,
        id: own,
        context: ours.messageId,
        reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      }),
    );
    expect((await entry(own)).replyTo).toMatchObject({ providerMessageId: ours.messageId, preview: "Track or talk?" });
  });
});

describe("docs/messaging.md examples", () => {
  // The curl examples of "Buttons, lists and links", "Reactions" and "Quoted replies" as
  // written, with the doc's sample number, messageUid, provider id and conversation put in for
  // this test's own.
  const doc = fs.readFileSync(path.join(process.cwd(), "docs/messaging.md"), "utf8");
  const section = (heading: string) => {
    const start = doc.indexOf(`\n## ${heading}\n`);
    expect(start, heading).toBeGreaterThan(-1);
    const end = doc.indexOf("\n## ", start + 1);
    return doc.slice(start, end === -1 ? undefined : end);
  };
  const examples = (text: string) =>
    [...text.matchAll(/curl -s "\$BASE(\/api\/v3\/[^"]+)"[\s\S]*?-d '([\s\S]*?)'/g)].map((m) => ({
      path: m[1] ?? "",
      body: m[2] ?? "",
    }));

  it("each example of Buttons, lists and links is answered 200 and leaves as the provider's interactive object", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "Where is my order?", { id: theirs });
    const row = await entry(theirs);
    const all = examples(section("Buttons, lists and links"));
    expect(all.length).toBe(4);
    const left: string[] = [];
    const uids: string[] = [];
    for (const example of all) {
      const body = example.body.replaceAll("+14155550123", to);
      const route = example.path.replace("$CONVERSATION", row.conversationId);
      const res = await call("POST", route, { token: t.globalToken, body: JSON.parse(body) });
      expect(res.status, `${route} ${body}: ${JSON.stringify(res.body)}`).toBe(200);
      const sent = await db.message.findUniqueOrThrow({ where: { id: res.body.data.messageUid } });
      const payload = sent.payload as { type?: string; interactive?: { type?: string } };
      left.push(`${payload.type}:${payload.interactive?.type}`);
      uids.push(sent.id);
    }
    expect(left).toEqual(["interactive:button", "interactive:list", "interactive:cta_url", "interactive:button"]);
    // The thread keeps each one's interactive object, in our shape.
    const items = await threadOf(t.globalToken, row.conversationId);
    const kinds = uids.map((uid) => (items.find((m) => m.messageUid === uid)?.interactive as { type?: string })?.type);
    expect(kinds).toEqual(["buttons", "list", "cta_url", "buttons"]);
  });

  it("each example of Reactions and Quoted replies is answered 200", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const theirs = inboundWamid();
    await contactWrites(t.sender, to, "Which size fits?", { id: theirs });
    const row = await entry(theirs);
    const all = [...examples(section("Reactions")), ...examples(section("Quoted replies"))];
    expect(all.length).toBe(5);
    for (const example of all) {
      const body = example.body
        .replaceAll("+14155550123", to)
        .replaceAll("14155550123", to.slice(1))
        .replaceAll("cmsg_01a20a3ad725000022a52790df1cf", row.id)
        .replace(/wamid\.[A-Za-z0-9_-]+/g, theirs);
      const route = example.path.replace("$CONVERSATION", row.conversationId);
      const res = await call("POST", route, { token: t.globalToken, body: JSON.parse(body) });
      expect(res.status, `${route} ${body}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const items = await threadOf(t.globalToken, row.conversationId);
    // The reaction added, then removed; three messages quoting theirs.
    expect(items.find((m) => m.messageUid === row.id)?.reactions).toEqual([]);
    expect(items.filter((m) => (m.replyTo as { messageId?: string } | null)?.messageId === row.id)).toHaveLength(3);
  });
});

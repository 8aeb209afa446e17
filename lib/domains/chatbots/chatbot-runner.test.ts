// Chatbots running end to end (docs/chatbots.md): signed inbound callbacks through the real
// endpoint and processor, the outbox written in the ingest transaction, and the worker
// sending through the normal send path to the provider simulator.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { wakeableSleep } from "@/lib/core/wakeable-sleep";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { postProvider } from "@/test/events-helpers";
import { call, uniquePhone } from "@/test/factory";
import { addTemplate, HELLO_PARAMS, messagingCustomer } from "@/test/messaging-fixtures";
import { HANDOFF_MS } from "./engine";
import { claimReplies } from "./outbox";
import { decideChatbotReplies } from "./runner";
import { deliverReply, replyMessageId, sendDueReplies, startChatbotWorker } from "./worker";

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let t: Customer;

const text = (body: string) => ({ type: "text", text: body });
const BOT = {
  name: "Front desk",
  status: "ACTIVE",
  rules: [
    { match: { type: "keyword", value: "hours" }, reply: text("Open 9 to 5") },
    { match: { type: "keyword", value: "agent" }, reply: text("A person will answer"), handoff: true },
    {
      match: { type: "keyword", value: "menu" },
      reply: { type: "template", template: { name: "bot_menu", language: "en", components: HELLO_PARAMS } },
    },
  ],
  fallbackReply: text("Hello! Type hours, menu or agent"),
};

/** One inbound provider message (Cloud API shape), as its raw callback body and id. */
function inbound(
  to: { phoneNumberId: string | null; wabaId: string | null },
  from: string,
  message: Record<string, unknown>,
) {
  const id = `wamid.bot.${randomBytes(8).toString("hex")}`;
  const raw = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: to.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550001234", phone_number_id: to.phoneNumberId },
              contacts: [{ profile: { name: "Ana" }, wa_id: from.replace("+", "") }],
              messages: [
                { from: from.replace("+", ""), id, timestamp: String(Math.floor(Date.now() / 1000)), ...message },
              ],
            },
          },
        ],
      },
    ],
  });
  return { id, raw };
}

/** A customer writes to the test sender; the callback is stored and applied. */
async function customerWrites(from: string, message: Record<string, unknown>, sender = t.sender) {
  const msg = inbound(sender, from, message);
  expect((await postProvider(msg.raw)).status).toBe(200);
  await processPendingCallbacks();
  return msg;
}
const says = (from: string, body: string) => customerWrites(from, { type: "text", text: { body } });

const sendAll = () => sendDueReplies({ customerIds: [t.customer.id], retryBaseMs: 10 });
const toProvider = (contact: string) => getSimulator()?.acceptedTo(contact) ?? [];
const outbox = (contact: string) =>
  db.chatbotReply.findMany({
    where: { customerId: t.customer.id, contactPhoneNumber: contact },
    orderBy: { createdAt: "asc" },
  });

beforeAll(async () => {
  expect(getSimulator()).toBeDefined();
  t = await messagingCustomer();
  await addTemplate(t.customer.id, { name: "bot_menu", category: "UTILITY" });
  const res = await call("POST", "/api/v3/chatbots", { token: t.globalToken, body: { chatbot: BOT } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});

describe("a bot answers inbound messages through the outbox", () => {
  it("an inbound text gets exactly one reply through the provider, marked as the bot's", async () => {
    const contact = uniquePhone();
    const msg = await says(contact, "  Hours ");
    const [row] = await outbox(contact);
    expect(row).toMatchObject({ status: "PENDING", inboundProviderMessageId: msg.id, matchedRule: 0, handoff: false });
    expect(toProvider(contact)).toHaveLength(0);

    expect(await sendAll()).toBeGreaterThanOrEqual(1);
    const sent = toProvider(contact);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.type).toBe("text");
    const after = await outbox(contact);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: "SENT", messageId: replyMessageId(row?.id ?? "", 1), attempts: 1 });
    const message = await db.message.findUniqueOrThrow({ where: { id: replyMessageId(row?.id ?? "", 1) } });
    expect(message).toMatchObject({ sendRoute: "chatbot", recipient: contact, type: "text", status: "accepted" });
    expect(message.payload).toMatchObject({ text: { body: "Open 9 to 5" } });

    await sendAll();
    expect(toProvider(contact)).toHaveLength(1);

    // The thread shows the reply as the bot's, after the inbound.
    const conversation = await db.conversation.findFirstOrThrow({
      where: { senderId: t.sender.id, contactPhoneNumber: contact },
    });
    const thread = await call("GET", `/api/v3/conversations/${conversation.id}/messages`, { token: t.globalToken });
    expect(thread.status, JSON.stringify(thread.body)).toBe(200);
    const entries = thread.body.data.messages as { direction: string; sentBy: string; sentByLabel: string | null }[];
    expect(entries.map((m) => [m.direction, m.sentBy, m.sentByLabel])).toEqual([
      ["outbound", "chatbot", "Front desk"],
      ["inbound", "contact", "Ana"],
    ]);
  });

  it("a template reply goes out as the approved template", async () => {
    const contact = uniquePhone();
    await says(contact, "menu");
    await sendAll();
    const message = await db.message.findFirstOrThrow({ where: { recipient: contact, sendRoute: "chatbot" } });
    expect(message).toMatchObject({ type: "template", templateName: "bot_menu" });
  });

  it("a replayed inbound gets no second reply", async () => {
    const contact = uniquePhone();
    const msg = await says(contact, "hello");
    await sendAll();
    expect((await postProvider(msg.raw)).status).toBe(200);
    await processPendingCallbacks();
    await sendAll();
    expect(await outbox(contact)).toHaveLength(1);
    expect(toProvider(contact)).toHaveLength(1);
  });

  it("two workers racing send the reply once", async () => {
    const contact = uniquePhone();
    await says(contact, "hours");
    await Promise.all([sendAll(), sendAll(), sendAll()]);
    expect(toProvider(contact)).toHaveLength(1);
    expect((await outbox(contact))[0]?.status).toBe("SENT");
  });

  it("a reply committed with the inbound but never sent (the process died) is sent after restart", async () => {
    const contact = uniquePhone();
    await says(contact, "hours");
    // The worker that would have sent it is gone: the row waits, committed.
    expect((await outbox(contact))[0]?.status).toBe("PENDING");
    // A worker claimed it and died before sending: the lease runs out, then it is sent once.
    const claimed = await claimReplies(50, 150, [t.customer.id]);
    expect(claimed.map((r) => r.contactPhoneNumber)).toContain(contact);
    expect(await sendAll()).toBe(0);
    // Once the 150 ms lease has run out, the next pass sends it.
    await vi.waitFor(
      async () => {
        await sendAll();
        expect(toProvider(contact)).toHaveLength(1);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect((await outbox(contact))[0]).toMatchObject({ status: "SENT", attempts: 2 });
  });

  it("a worker that sent but died before recording does not make the next one send again", async () => {
    const contact = uniquePhone();
    await says(contact, "hours");
    const [row] = (await claimReplies(50, 150, [t.customer.id])).filter((r) => r.contactPhoneNumber === contact);
    expect(row).toBeDefined();
    if (!row) return;
    expect((await deliverReply(row)).status).toBe("SENT"); // ...and the process dies here.
    // Once the lease has run out, a pass finds the message already sent and records it.
    await vi.waitFor(
      async () => {
        await sendAll();
        expect((await outbox(contact))[0]?.status).toBe("SENT");
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(toProvider(contact)).toHaveLength(1);
    expect((await outbox(contact))[0]).toMatchObject({ status: "SENT", messageId: replyMessageId(row.id, 1) });
  });
});

describe("attempts", () => {
  it("a send cut off mid-call (message left 'sending') is never resent", async () => {
    const contact = uniquePhone();
    await says(contact, "hours");
    const [row] = (await claimReplies(50, 150, [t.customer.id])).filter((r) => r.contactPhoneNumber === contact);
    if (!row) throw new Error("not claimed");
    // The dead holder had stored its message and called the provider; nobody knows the outcome.
    await db.message.create({
      data: {
        id: replyMessageId(row.id, 1),
        customerId: t.customer.id,
        senderId: t.sender.id,
        recipient: contact,
        type: "text",
        sendRoute: "chatbot",
        status: "sending",
        payload: {},
      },
    });
    // Once the lease has run out, a pass finds the message's outcome unknown and gives up on it.
    await vi.waitFor(
      async () => {
        await sendAll();
        expect((await outbox(contact))[0]?.status).toBe("FAILED");
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(toProvider(contact)).toHaveLength(0);
    const [after] = await outbox(contact);
    expect(after).toMatchObject({ status: "FAILED", messageId: replyMessageId(row.id, 1) });
    expect(after?.lastError).toMatch(/^interrupted/);
  });

  it("a provider rate limit is retried under a new message id, then sent once", async () => {
    const contact = uniquePhone();
    await says(contact, "hours");
    getSimulator()?.injectErrors(t.sender.phoneNumberId ?? "", [131056]);
    await sendAll();
    const [first] = await outbox(contact);
    expect(first).toMatchObject({ status: "PENDING", attempts: 1 });
    expect(first?.lastError).toMatch(/PROVIDER_RATE_LIMITED/);
    await db.chatbotReply.update({ where: { id: first?.id }, data: { nextAttemptAt: new Date(0) } });
    await sendAll();
    expect(toProvider(contact)).toHaveLength(1);
    expect((await outbox(contact))[0]).toMatchObject({
      status: "SENT",
      attempts: 2,
      messageId: replyMessageId(first?.id ?? "", 2),
    });
  });
});

describe("the worker loop", () => {
  it("wakes for a retry it scheduled instead of waiting for the safety poll", async () => {
    const contact = uniquePhone();
    await says(contact, "hours"); // the reply is in the outbox, due now
    getSimulator()?.injectErrors(t.sender.phoneNumberId ?? "", [131056]);
    // A 10-minute poll and a sleep that no NOTIFY ends (other test files share the database):
    // only the retry's own due time can send the reply within the wait.
    const quiet = wakeableSleep();
    const sleep = { epoch: quiet.epoch, pause: quiet.pause, close: quiet.wake };
    const retries: number[] = [];
    const worker = startChatbotWorker({
      customerIds: [t.customer.id],
      pollMs: 600_000,
      retryBaseMs: 300,
      sleep,
      onRetryScheduled: (ms) => retries.push(ms),
    });
    try {
      await expect.poll(async () => (await outbox(contact))[0]?.status, { timeout: 20_000 }).toBe("SENT");
      expect(retries).toHaveLength(1); // the first attempt met the injected rate limit
      expect(toProvider(contact)).toHaveLength(1);
      expect((await outbox(contact))[0]?.attempts).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});

describe("guards", () => {
  it("a person's reply stops the bot for 30 minutes", async () => {
    const contact = uniquePhone();
    await says(contact, "hi");
    await sendAll();
    const person = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to: contact, text: "Hi, this is Sam" },
    });
    expect(person.status, JSON.stringify(person.body)).toBe(200);
    await says(contact, "hours");
    expect(await outbox(contact)).toHaveLength(1);

    // 31 minutes later the bot answers again.
    const later = new Date(Date.now() + HANDOFF_MS + 60_000);
    const item = {
      customerId: t.customer.id,
      senderId: t.sender.id,
      senderPhone: t.sender.phoneNumber,
      providerMessageId: `wamid.later.${randomBytes(6).toString("hex")}`,
      from: contact,
      type: "text",
      text: "hours",
    };
    expect(await decideChatbotReplies(db, [item], { now: new Date(Date.now() + 60_000) })).toBe(0);
    expect(await decideChatbotReplies(db, [item], { now: later })).toBe(1);
  });

  it("the business's reaction is no person's reply: the bot answers on, and nothing waits for a person", async () => {
    const contact = uniquePhone();
    await says(contact, "hi");
    await sendAll();
    const theirs = await db.conversationMessage.findFirstOrThrow({
      where: { direction: "inbound", conversation: { senderId: t.sender.id, contactPhoneNumber: contact } },
    });
    const reaction = await call("POST", `/api/v3/conversations/${theirs.conversationId}/messages`, {
      token: t.globalToken,
      body: { message: { type: "reaction", reaction: { messageId: theirs.id, emoji: "👍" } } },
    });
    expect(reaction.status, JSON.stringify(reaction.body)).toBe(200);
    await says(contact, "hours");
    expect(await outbox(contact)).toHaveLength(2);
    const period = await db.supportPeriod.findFirstOrThrow({ where: { conversationId: theirs.conversationId } });
    expect(period).toMatchObject({ waitingSince: null, firstResponseAt: null });
  });

  it("a hand-off rule answers once, then the bot is quiet", async () => {
    const contact = uniquePhone();
    await says(contact, "agent");
    await says(contact, "hours");
    const rows = await outbox(contact);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ matchedRule: 1, handoff: true });
  });

  it("closing the conversation ends a hand-off", async () => {
    const contact = uniquePhone();
    await says(contact, "agent");
    await sendAll();
    const conversation = await db.conversation.findFirstOrThrow({
      where: { senderId: t.sender.id, contactPhoneNumber: contact },
    });
    const closed = await call("POST", `/api/v3/conversations/${conversation.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await says(contact, "hours");
    expect((await outbox(contact)).map((r) => r.matchedRule)).toEqual([1, 0]);
  });

  it("never answers reactions or opt-out keywords", async () => {
    const contact = uniquePhone();
    await customerWrites(contact, { type: "reaction", reaction: { message_id: "wamid.x", emoji: "👍" } });
    await says(contact, "STOP");
    await says(contact, "start");
    expect(await outbox(contact)).toHaveLength(0);
    await customerWrites(contact, {
      type: "image",
      image: { id: "media1", mime_type: "image/jpeg", caption: "hours" },
    });
    expect((await outbox(contact))[0]?.matchedRule).toBe(0);
  });

  it("sends at most 5 replies per contact in 10 minutes", async () => {
    const contact = uniquePhone();
    for (let i = 0; i < 7; i++) await says(contact, `message ${i}`);
    expect(await outbox(contact)).toHaveLength(5);
  });

  it("an inactive bot, or another sender's messages, get no reply", async () => {
    const contact = uniquePhone();
    await customerWrites(contact, { type: "text", text: { body: "hours" } }, t.otherSender);
    expect(await outbox(contact)).toHaveLength(0);
    const other = await messagingCustomer();
    const bot = await call("POST", "/api/v3/chatbots", {
      token: other.globalToken,
      body: { chatbot: { ...BOT, status: "INACTIVE" } },
    });
    expect(bot.status).toBe(201);
    await customerWrites(contact, { type: "text", text: { body: "hours" } }, other.sender);
    expect(await db.chatbotReply.count({ where: { customerId: other.customer.id } })).toBe(0);
  });

  it("a refused send (blacklisted contact) fails the row instead of retrying forever", async () => {
    const contact = uniquePhone();
    await db.blacklistEntry.create({
      data: { customerId: t.customer.id, senderId: t.sender.id, phoneNumber: contact, reason: "test" },
    });
    await says(contact, "hours");
    await sendAll();
    expect((await outbox(contact))[0]).toMatchObject({ status: "FAILED" });
    expect((await outbox(contact))[0]?.lastError).toMatch(/RECIPIENT_BLACKLISTED/);
    expect(toProvider(contact)).toHaveLength(0);
  });
});

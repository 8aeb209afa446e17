// Conversations through the real router on v2 and v3 (docs/conversations.md): outbound and
// inbound messages file into threads, every route and filter, pagination, tenant and sender
// isolation, the window rule on every route kind, replayed callbacks, live statuses.
import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/route-table";
import { db } from "@/lib/db";
import { sendFromComposer } from "@/lib/domains/messaging/composer";
import { ComposerBody } from "@/lib/domains/messaging/schemas";
import { getSimulator } from "@/lib/domains/provider/client";
import { inboundWamid } from "@/lib/domains/provider/simulator-inbound";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites, drainCallbacks, inboundBody, postSigned } from "@/test/conversation-fixtures";
import { sentMessages, waitFor } from "@/test/events-helpers";
import { call } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const sim = () => {
  const s = getSimulator();
  if (!s) throw new Error("tests expect the simulator");
  return s;
};
const templateBody = (to: string, extra: Record<string, unknown> = {}) => ({
  to,
  template: { name: "order_update", language: "en", components: HELLO_PARAMS },
  ...extra,
});
const HOUR = 3_600_000;

async function conversationOf(token: string, contact: string, v = "v3") {
  const res = await call("GET", `/api/${v}/conversations`, { token, query: { search: contact } });
  expect(res.status).toBe(200);
  const found = res.body.data.conversations.find(
    (c: { contactPhoneNumber: string }) => c.contactPhoneNumber === contact,
  );
  if (!found) throw new Error(`no conversation with ${contact}`);
  return found;
}

describe("the routes", () => {
  it("are on v2 and v3, the reply a send route, the reads global-limited", () => {
    const mine = routes.filter((r) => r.path.startsWith("/conversations"));
    expect(mine.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "GET /conversations",
      "GET /conversations/:conversationUid",
      "GET /conversations/:conversationUid/messages",
      "GET /conversations/:conversationUid/notes",
      "POST /conversations/:conversationUid",
      "POST /conversations/:conversationUid/labels",
      "POST /conversations/:conversationUid/messages",
      "POST /conversations/:conversationUid/notes",
    ]);
    for (const r of mine) {
      expect(r.versions).toEqual(["v2", "v3"]);
      expect(r.limit).toBe(r.method === "POST" && r.path.endsWith("/messages") ? "send" : "global");
    }
  });
});

describe("outbound messages join their conversation", () => {
  it("a template send creates the conversation (conversation.created) with the message in its thread", async () => {
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
      uid: c.conversationUid,
      contactPhoneNumber: to,
      senderId: t.sender.phoneNumber,
      phoneNumberId: t.sender.phoneNumberId,
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
        conversationUid: c.conversationUid,
        direction: "outbound",
        type: "template",
        sentBy: "api",
        providerMessageId: sent.body.data.messageId,
        status: "accepted",
        content: { template: expect.objectContaining({ name: "order_update" }) },
      }),
    ]);
    const created = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, type: "conversation.created" },
    });
    expect(created).toHaveLength(1);
    expect(created[0]?.payload).toMatchObject({
      data: { conversationUid: c.conversationUid, contactPhoneNumber: to, origin: "outbound" },
    });
    // A second message to the same contact: same conversation, no second event.
    await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(to) });
    expect(await db.conversation.count({ where: { customerId: t.customer.id } })).toBe(1);
    expect(await db.webhookEvent.count({ where: { customerId: t.customer.id, type: "conversation.created" } })).toBe(1);
  });

  it("outbound statuses from the provider's callbacks reach the thread", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    sim().forceOutcome(to, "read");
    const sent = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(to) });
    const c = await conversationOf(t.globalToken, to);
    const status = async () => {
      await drainCallbacks();
      const thread = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, {
        token: t.globalToken,
      });
      return thread.body.data.messages[0].status;
    };
    await waitFor(async () => (await status()) === "read", 15_000, "read status in the thread");
    sim().forceOutcome(to, undefined);
    expect(sent.status).toBe(200);
  });
});

describe("inbound messages", () => {
  it("create the conversation, count unread, open the window; a replay changes nothing", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    const id = inboundWamid();
    const body = inboundBody(t.sender, { from, text: "Where is my parcel?", name: "Ana Ruiz", id });
    expect(await postSigned(body)).toBe(200);
    await drainCallbacks();
    const c = await conversationOf(t.globalToken, from);
    expect(c).toMatchObject({
      contactName: "Ana Ruiz",
      unreadCount: 1,
      windowOpen: true,
      lastMessagePreview: "Where is my parcel?",
      status: "OPEN",
    });
    expect(new Date(c.windowExpiresAt).getTime() - new Date(c.lastInboundAt).getTime()).toBe(24 * HOUR);
    const events = await db.webhookEvent.findMany({ where: { customerId: t.customer.id }, orderBy: { type: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["conversation.created", "message.inbound.text"]);
    expect(events[1]?.payload).toMatchObject({ data: { messageId: id, conversationUid: c.conversationUid } });

    // The provider re-sends the same callback: nothing is stored, counted or emitted twice.
    expect(await postSigned(body)).toBe(200);
    await drainCallbacks();
    const again = await conversationOf(t.globalToken, from);
    expect(again.unreadCount).toBe(1);
    expect(again.updatedAt).toBe(c.updatedAt);
    expect(await db.conversationMessage.count({ where: { conversationId: c.conversationUid } })).toBe(1);
    expect(await db.webhookEvent.count({ where: { customerId: t.customer.id } })).toBe(2);

    const thread = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, { token: t.globalToken });
    expect(thread.body.data.messages).toEqual([
      {
        messageUid: expect.stringMatching(/^cmsg_/),
        conversationUid: c.conversationUid,
        direction: "inbound",
        type: "text",
        content: { text: { body: "Where is my parcel?" } },
        status: "received",
        providerMessageId: id,
        sentBy: "contact",
        sentByLabel: "Ana Ruiz",
        errorCode: null,
        errorMessage: null,
        timestamp: expect.any(String),
        media: null,
        replyTo: null,
        reactions: [],
        interactive: null,
        reply: null,
      },
    ]);
    // Its place in the thread is its provider second: the arrival time when it came within
    // that second, else the second's last moment (lib/ingest/thread-time.ts) - a busy
    // machine may take longer than a second to process the callback.
    const placed = new Date(thread.body.data.messages[0].timestamp).getTime() - new Date(c.lastInboundAt).getTime();
    expect(placed).toBeGreaterThanOrEqual(0);
    expect(placed).toBeLessThanOrEqual(999);
  });

  it("a new message reopens a closed conversation and adds to the unread count", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    await contactWrites(t.sender, from, "one");
    const c = await conversationOf(t.globalToken, from);
    const closed = await call("POST", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.body.data.status).toBe("CLOSED");
    await contactWrites(t.sender, from, "two");
    const after = await conversationOf(t.globalToken, from);
    expect(after).toMatchObject({ status: "OPEN", unreadCount: 2, lastMessagePreview: "two" });
  });
});

describe("GET /conversations", () => {
  it("filters by status, unread, search and sender; newest activity first; pages walk the list", async () => {
    const t = await messagingCustomer();
    const contacts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const to = recipient();
      contacts.push(to);
      await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(to) });
    }
    const writer = recipient();
    await contactWrites(t.sender, writer, "hola", { name: "Zoë Quill" });
    const other = recipient();
    await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: templateBody(other, { senderId: t.otherSender.phoneNumber }),
    });
    const all = await call("GET", "/api/v2/conversations", { token: t.globalToken });
    expect(all.body.data.pagination).toMatchObject({ total: 7, count: 7, page: 1, limit: 50, hasMore: false });
    const order = all.body.data.conversations.map((c: { lastMessageAt: string }) => c.lastMessageAt);
    expect([...order].sort().reverse()).toEqual(order);
    expect(all.body.data.items).toEqual(all.body.data.conversations);
    expect(all.body.data.conversations[0].contactPhoneNumber).toBe(other);

    const unread = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { unread: "true" } });
    expect(unread.body.data.conversations.map((c: { contactPhoneNumber: string }) => c.contactPhoneNumber)).toEqual([
      writer,
    ]);
    const byName = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { search: "zoë q" } });
    expect(byName.body.data.conversations).toHaveLength(1);
    const byDigits = await call("GET", "/api/v3/conversations", {
      token: t.globalToken,
      query: { search: contacts[2]?.slice(-7) ?? "" },
    });
    expect(byDigits.body.data.conversations.map((c: { contactPhoneNumber: string }) => c.contactPhoneNumber)).toEqual([
      contacts[2],
    ]);
    const noMatch = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { search: "100%_" } });
    expect(noMatch.body.data.conversations).toEqual([]);

    const bySender = await call("GET", "/api/v3/conversations", {
      token: t.globalToken,
      query: { senderId: t.otherSender.phoneNumber },
    });
    expect(bySender.body.data).toMatchObject({ scope: "sender", senderId: t.otherSender.phoneNumber });
    expect(bySender.body.data.conversations.map((c: { contactPhoneNumber: string }) => c.contactPhoneNumber)).toEqual([
      other,
    ]);

    const first = contacts[0] ?? "";
    const c0 = await conversationOf(t.globalToken, first);
    await call("POST", `/api/v3/conversations/${c0.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { status: "closed" } },
    });
    const closed = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { status: "CLOSED" } });
    expect(closed.body.data.conversations.map((c: { contactPhoneNumber: string }) => c.contactPhoneNumber)).toEqual([
      first,
    ]);
    const open = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { status: "open" } });
    expect(open.body.data.pagination.total).toBe(6);
    const bad = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { status: "PENDING" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");

    // Walk the pages: every conversation exactly once, in the same order.
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { page, limit: 3 } });
      expect(res.body.data.pagination).toMatchObject({ page, limit: 3, total: 7, totalPages: 3, hasMore: page < 3 });
      seen.push(...res.body.data.conversations.map((c: { uid: string }) => c.uid));
    }
    expect(seen).toEqual(all.body.data.conversations.map((c: { uid: string }) => c.uid));
    const clamped = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { limit: 1000 } });
    expect(clamped.body.data.pagination.limit).toBe(100);
  });
});

describe("a conversation and its thread", () => {
  it("reads one conversation, pages its messages newest first, marks read, closes and reopens", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    for (const text of ["a", "b", "c"]) await contactWrites(t.sender, from, text);
    const c = await conversationOf(t.globalToken, from);
    const one = await call("GET", `/api/v2/conversations/${c.conversationUid}`, { token: t.globalToken });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(c);
    const p1 = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, {
      token: t.globalToken,
      query: { limit: 2 },
    });
    expect(p1.body.data.pagination).toMatchObject({ total: 3, count: 2, hasMore: true, totalPages: 2 });
    const p2 = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, {
      token: t.globalToken,
      query: { limit: 2, page: 2 },
    });
    const bodies = [...p1.body.data.messages, ...p2.body.data.messages].map(
      (m: { content: { text: { body: string } } }) => m.content.text.body,
    );
    expect(bodies).toEqual(["c", "b", "a"]);

    const read = await call("POST", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { markRead: true } },
    });
    expect(read.status).toBe(200);
    expect(read.body.data.unreadCount).toBe(0);
    const closed = await call("POST", `/api/v2/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.body.data.status).toBe("CLOSED");
    // Closing twice emits one event.
    await call("POST", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    const events = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, type: "conversation.closed" },
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ data: { conversationUid: c.conversationUid, status: "CLOSED" } });
    const reopened = await call("POST", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { status: "OPEN" } },
    });
    expect(reopened.body.data.status).toBe("OPEN");

    const empty = await call("POST", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: {} },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error_code).toBe("VALIDATION_FAILED");
    const wrong = await call("POST", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      body: { conversation: { markRead: false } },
    });
    expect(wrong.status).toBe(400);
  });

  it("an unknown or malformed uid is CONVERSATION_NOT_FOUND on every route", async () => {
    const t = await messagingCustomer();
    for (const uid of ["conv_0123abcd", "nope", "conv_%00"]) {
      const get = await call("GET", `/api/v3/conversations/${uid}`, { token: t.globalToken });
      expect(get.status, uid).toBe(404);
      expect(get.body.error_code).toBe("CONVERSATION_NOT_FOUND");
      const msgs = await call("GET", `/api/v2/conversations/${uid}/messages`, { token: t.globalToken });
      expect(msgs.body.error_code).toBe("CONVERSATION_NOT_FOUND");
      const upd = await call("POST", `/api/v3/conversations/${uid}`, {
        token: t.globalToken,
        body: { conversation: { markRead: true } },
      });
      expect(upd.body.error_code).toBe("CONVERSATION_NOT_FOUND");
      const reply = await call("POST", `/api/v3/conversations/${uid}/messages`, {
        token: t.globalToken,
        body: { message: { type: "text", text: { body: "hi" } } },
      });
      expect(reply.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    }
  });
});

describe("isolation", () => {
  it("another customer's or another sender's uid is CONVERSATION_NOT_FOUND; a number-scoped token sees its sender only", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const mine = recipient();
    await contactWrites(t.sender, mine, "mine");
    const theirs = recipient();
    await contactWrites(t.otherSender, theirs, "other sender");
    const c = await conversationOf(t.globalToken, mine);
    const o = await conversationOf(t.globalToken, theirs);

    for (const [method, path, body] of [
      ["GET", `/api/v3/conversations/${c.conversationUid}`, undefined],
      ["GET", `/api/v2/conversations/${c.conversationUid}/messages`, undefined],
      ["POST", `/api/v3/conversations/${c.conversationUid}`, { conversation: { status: "CLOSED" } }],
      [
        "POST",
        `/api/v3/conversations/${c.conversationUid}/messages`,
        { message: { type: "text", text: { body: "x" } } },
      ],
    ] as const) {
      const res = await call(method, path, { token: stranger.globalToken, body });
      expect(res.status, path).toBe(404);
      expect(res.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    }
    const strangerList = await call("GET", "/api/v3/conversations", { token: stranger.globalToken });
    expect(strangerList.body.data.conversations).toEqual([]);
    expect((await conversationOf(t.globalToken, mine)).status).toBe("OPEN");

    // The scoped token belongs to t.sender.
    const scopedList = await call("GET", "/api/v3/conversations", { token: t.scopedToken });
    expect(scopedList.body.data.scope).toBe("sender");
    expect(scopedList.body.data.conversations.map((x: { uid: string }) => x.uid)).toEqual([c.conversationUid]);
    const scopedOther = await call("GET", `/api/v3/conversations/${o.conversationUid}`, { token: t.scopedToken });
    expect(scopedOther.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    const scopedReply = await call("POST", `/api/v3/conversations/${o.conversationUid}/messages`, {
      token: t.scopedToken,
      body: { message: { type: "text", text: { body: "x" } } },
    });
    expect(scopedReply.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    expect(sim().acceptedTo(theirs)).toHaveLength(0);
    const scopedAsk = await call("GET", "/api/v3/conversations", {
      token: t.scopedToken,
      query: { senderId: t.otherSender.phoneNumber },
    });
    expect(scopedAsk.status).toBe(403);
    expect(scopedAsk.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    // A global token naming a sender: that sender's conversations only.
    const named = await call("GET", `/api/v3/conversations/${c.conversationUid}`, {
      token: t.globalToken,
      query: { senderId: t.otherSender.phoneNumber },
    });
    expect(named.body.error_code).toBe("CONVERSATION_NOT_FOUND");
  });
});

describe("replies and the customer service window", () => {
  it("a reply inside the window goes through the send path and appears in the thread", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    await contactWrites(t.sender, from, "Can you help?");
    const c = await conversationOf(t.globalToken, from);
    const headers = { "Idempotency-Key": `reply-${c.conversationUid}` };
    const body = { message: { type: "text", text: { body: "Of course!" } } };
    const res = await call("POST", `/api/v3/conversations/${c.conversationUid}/messages`, {
      token: t.scopedToken,
      body,
      headers,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "accepted", type: "text", recipient: from, sendRoute: "chat" });
    const replay = await call("POST", `/api/v3/conversations/${c.conversationUid}/messages`, {
      token: t.scopedToken,
      body,
      headers,
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data).toEqual(res.body.data);
    expect(sim().acceptedTo(from)).toHaveLength(1);
    const thread = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, { token: t.globalToken });
    expect(thread.body.data.messages[0]).toMatchObject({
      messageUid: res.body.data.messageUid,
      direction: "outbound",
      type: "text",
      content: { text: { body: "Of course!", preview_url: false } },
      sentBy: "api",
    });
    const after = await conversationOf(t.globalToken, from);
    expect(after.lastMessagePreview).toBe("Of course!");
  });

  it("Idempotency-Key on a reply is the router's, per conversation: another conversation is another request", async () => {
    const t = await messagingCustomer();
    const [first, second] = [recipient(), recipient()];
    await contactWrites(t.sender, first, "Hi");
    await contactWrites(t.sender, second, "Hi");
    const [a, b] = [await conversationOf(t.globalToken, first), await conversationOf(t.globalToken, second)];
    const headers = { "Idempotency-Key": `reply-per-conversation-${a.conversationUid}` };
    // senderId names the sender, so the router's scope holds the sender and the conversation.
    const body = { senderId: t.sender.phoneNumber, message: { type: "text", text: { body: "On our way" } } };
    const sent = await call("POST", `/api/v2/conversations/${a.conversationUid}/messages`, {
      token: t.globalToken,
      body,
      headers,
    });
    expect(sent.status).toBe(200);
    const elsewhere = await call("POST", `/api/v3/conversations/${b.conversationUid}/messages`, {
      token: t.globalToken,
      body,
      headers,
    });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED");
    const again = await call("POST", `/api/v3/conversations/${a.conversationUid}/messages`, {
      token: t.globalToken,
      body,
      headers,
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.messageUid).toBe(sent.body.data.messageUid);
    expect(sim().acceptedTo(first)).toHaveLength(1);
    expect(sim().acceptedTo(second)).toHaveLength(0);
  });

  it("refuses free-form outside the window per route kind and sends nothing; templates, orders and Direct Send pass", async () => {
    const t = await messagingCustomer();
    const stranger = recipient();
    // Never wrote: both window fields null.
    for (const v of ["v2", "v3"]) {
      const chat = await call("POST", `/api/${v}/chat`, { token: t.globalToken, body: { to: stranger, text: "hi" } });
      expect(chat.status).toBe(400);
      expect(chat.body).toMatchObject({
        success: false,
        error_code: "CUSTOMER_SERVICE_WINDOW_CLOSED",
        details: { windowExpiresAt: null, lastInboundAt: null },
      });
      expect(chat.body.message).toMatch(/template/);
      const provider = await call("POST", `/api/${v}/messages`, {
        token: t.globalToken,
        body: { to: stranger, type: "text", text: { body: "hi" } },
      });
      expect(provider.status).toBe(400);
      expect(provider.body.error).toMatchObject({ code: 131047 });
      expect(provider.body.error.error_data.error_code).toBe("CUSTOMER_SERVICE_WINDOW_CLOSED");
      const byId = await call("POST", `/api/${v}/${t.sender.phoneNumberId}/messages`, {
        token: t.globalToken,
        body: { to: stranger, type: "image", image: { link: "https://example.com/a.png" } },
      });
      expect(byId.status).toBe(400);
      expect(byId.body.error.code).toBe(131047);
    }
    await expect(
      sendFromComposer(
        memberPrincipal(t.customer.id),
        ComposerBody.parse({ mode: "session", senderId: t.sender.phoneNumber, to: stranger, text: "Hello" }),
      ),
    ).rejects.toMatchObject({ code: "CUSTOMER_SERVICE_WINDOW_CLOSED" });
    expect(sim().acceptedTo(stranger)).toHaveLength(0);
    expect(await db.message.count({ where: { recipient: stranger } })).toBe(0);

    // Wrote 25 hours ago: the window closed an hour ago.
    const lapsed = recipient();
    const wroteAt = new Date(Math.floor((Date.now() - 25 * HOUR) / 1000) * 1000);
    await contactWrites(t.sender, lapsed, "old", { at: wroteAt });
    const late = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to: lapsed, text: "sorry" } });
    expect(late.status).toBe(400);
    expect(late.body.details).toEqual({
      lastInboundAt: wroteAt.toISOString(),
      windowExpiresAt: new Date(wroteAt.getTime() + 24 * HOUR).toISOString(),
    });
    const c = await conversationOf(t.globalToken, lapsed);
    expect(c.windowOpen).toBe(false);
    const reply = await call("POST", `/api/v3/conversations/${c.conversationUid}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "hello again" } } },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error_code).toBe("CUSTOMER_SERVICE_WINDOW_CLOSED");
    expect(sim().acceptedTo(lapsed)).toHaveLength(0);
    const thread = await call("GET", `/api/v3/conversations/${c.conversationUid}/messages`, { token: t.globalToken });
    expect(thread.body.data.pagination.total).toBe(1);

    // What always passes: a template reply, /send, Direct Send on v3, an order.
    const tpl = await call("POST", `/api/v2/conversations/${c.conversationUid}/messages`, {
      token: t.globalToken,
      body: {
        message: { type: "template", template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
      },
    });
    expect(tpl.status).toBe(200);
    expect(tpl.body.data).toMatchObject({ type: "template", sendRoute: "send" });
    const send = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(stranger) });
    expect(send.status).toBe(200);
    const direct = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to: stranger, text: "Your code is 1234", category: "authentication" },
    });
    expect(direct.status).toBe(200);
    const directProvider = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to: stranger, type: "text", text: { body: "Code 5678" }, category: "AUTHENTICATION" },
    });
    expect(directProvider.status).toBe(200);
    const order = await call("POST", "/api/v3/orders/send", {
      token: t.globalToken,
      body: { to: stranger, order: { currency: "usd", items: [{ name: "Mug", quantity: 1, amount: 8 }] } },
    });
    expect(order.status).toBe(200);
    expect(sim().acceptedTo(stranger)).toHaveLength(4);
  });

  it("the simulator fails a free-form message outside the window with 131047, as the provider does", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const sender = { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: null };
    const payload = { messaging_product: "whatsapp" as const, to: to.slice(1), type: "text", text: { body: "hi" } };
    const outcome = await sim().sendMessage(sender, payload);
    expect(outcome.ok).toBe(true);
    const messageId = outcome.ok ? outcome.messageId : "";
    // Called straight, the simulator has no send of ours behind it: record one, as a send does
    // (statuses of messages this service did not send are never applied).
    await sentMessages(t.sender, "", new Map([[messageId, to]]));
    const record = await waitFor(
      async () => {
        await drainCallbacks();
        return db.billingRecord.findUnique({ where: { messageId } });
      },
      15_000,
      "the failed status",
    );
    expect(record).toMatchObject({ status: "failed", errorCode: 131047 });
    // Inside the window the simulator delivers.
    const engaged = await engagedRecipient(t.sender);
    sim().forceOutcome(engaged, "delivered");
    const ok = await sim().sendMessage(sender, { ...payload, to: engaged.slice(1) });
    const okId = ok.ok ? ok.messageId : "";
    await sentMessages(t.sender, "", new Map([[okId, engaged]]));
    const delivered = await waitFor(
      async () => {
        await drainCallbacks();
        const r = await db.billingRecord.findUnique({ where: { messageId: okId } });
        return r?.status === "delivered" ? r : null;
      },
      15_000,
      "delivered",
    );
    expect(delivered.errorCode).toBeNull();
    sim().forceOutcome(engaged, undefined);
  });
});

// The inbox's session routes (the router's, under app/api/dashboard/[...path]) on a real database:
// the inbox order and badge, the thread oldest first, mark read and close, a reply from the
// signed-in user, the window refusal, another customer's uid, the mutation guard, and what a
// token gets on the same paths.
import { randomBytes } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { contactWrites } from "@/test/conversation-fixtures";
import { memberPrincipal } from "@/test/member-fixtures";
import { HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const list = await import("../[...path]/route");
const unread = await import("../[...path]/route");
const one = await import("../[...path]/route");
const replies = await import("../[...path]/route");
const labelRoute = await import("../[...path]/route");

const ORIGIN = "http://dash.test";
const SAME = { Host: "dash.test", Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" };
const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { Host: "dash.test" } });
const post = (path: string, body: unknown, headers: Record<string, string> = SAME) =>
  new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
const ctx = (uid: string) => ({ params: Promise.resolve({ uid }) });

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let email: string;
let older: string;
let newer: string;
let stranger: string;
beforeAll(async () => {
  t = await messagingCustomer();
  email = `dash-${randomBytes(4).toString("hex")}@example.test`;
  const user = await db.user.create({ data: { customerId: t.customer.id, email, passwordHash: "x" } });
  nextRequest.principal = {
    customerId: t.customer.id,
    plan: "pro",
    via: "session",
    userId: user.id,
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId: user.id, email: user.email, name: null, role: "owner", senderIds: null },
  };
  older = recipient();
  newer = recipient();
  stranger = recipient();
  await contactWrites(t.sender, older, "first", { at: new Date(Date.now() - 60_000) });
  await contactWrites(t.sender, newer, "second");
  // A template to someone who never wrote: a conversation with no window.
  const { sendFromComposer } = await import("@/lib/domains/messaging/composer");
  await sendFromComposer(nextRequest.principal, {
    mode: "template",
    senderId: t.sender.phoneNumber,
    to: stranger,
    template: { name: "order_update", language: "en", components: HELLO_PARAMS },
  } as never);
});
beforeEach(() => {
  nextRequest.principalAsked = 0;
});

async function listed(query = "") {
  const res = await list.GET(get(`/api/dashboard/conversations${query}`), {});
  expect(res.status).toBe(200);
  return (await res.json()).data as {
    conversations: { uid: string; contactPhoneNumber: string; unreadCount: number; status: string }[];
    unread: number;
    pagination: { total: number };
  };
}
const uidOf = async (contact: string) =>
  (await listed()).conversations.find((c) => c.contactPhoneNumber === contact)?.uid ?? "";

describe("the inbox list and badge", () => {
  it("lists unread first, then the newest, with the unread count; filters come from the query", async () => {
    const all = await listed();
    expect(all.conversations.map((c) => c.contactPhoneNumber)).toEqual([newer, older, stranger]);
    expect(all.unread).toBe(2);
    const unreadOnly = await listed("?unread=true");
    expect(unreadOnly.conversations.map((c) => c.contactPhoneNumber)).toEqual([newer, older]);
    expect((await listed(`?search=${older.slice(-6)}`)).conversations.map((c) => c.contactPhoneNumber)).toEqual([
      older,
    ]);
    expect(await listed(`?sender=${encodeURIComponent(t.otherSender.phoneNumber)}`)).toMatchObject({
      conversations: [],
      unread: 0,
    });
    const badge = await unread.GET(get("/api/dashboard/conversations/unread"), {});
    expect((await badge.json()).data).toEqual({ unread: 2 });
    const bad = await list.GET(get("/api/dashboard/conversations?status=maybe"), {});
    expect(bad.status).toBe(400);
    expect((await bad.json()).error_code).toBe("VALIDATION_FAILED");
  });
});

describe("a thread", () => {
  it("reads oldest first; mark read, close and reopen answer the conversation", async () => {
    const uid = await uidOf(older);
    await contactWrites(t.sender, older, "again");
    const res = await one.GET(get(`/api/dashboard/conversations/${uid}`), ctx(uid));
    const body = (await res.json()).data;
    expect(body.messages.map((m: { content: { text: { body: string } } }) => m.content.text.body)).toEqual([
      "first",
      "again",
    ]);
    expect(body).toMatchObject({ total: 2, conversation: { uid, windowOpen: true, unreadCount: 2 } });

    const read = await one.POST(
      post(`/api/dashboard/conversations/${uid}`, { conversation: { markRead: true } }),
      ctx(uid),
    );
    expect((await read.json()).data).toMatchObject({ unreadCount: 0 });
    const closed = await one.POST(
      post(`/api/dashboard/conversations/${uid}`, { conversation: { status: "CLOSED" } }),
      ctx(uid),
    );
    expect((await closed.json()).data).toMatchObject({ status: "CLOSED" });
    expect((await listed("?status=closed")).conversations.map((c) => c.uid)).toEqual([uid]);
    const reopened = await one.POST(
      post(`/api/dashboard/conversations/${uid}`, { conversation: { status: "open" } }),
      ctx(uid),
    );
    expect((await reopened.json()).data).toMatchObject({ status: "OPEN" });
    const empty = await one.POST(post(`/api/dashboard/conversations/${uid}`, { conversation: {} }), ctx(uid));
    expect(empty.status).toBe(400);
  });

  it("another customer's conversation is CONVERSATION_NOT_FOUND for read, update and reply", async () => {
    const other = await messagingCustomer();
    const theirs = recipient();
    await contactWrites(other.sender, theirs, "not yours");
    const mine = nextRequest.principal;
    nextRequest.principal = memberPrincipal(other.customer.id);
    const uid = (await listed()).conversations[0].uid;
    nextRequest.principal = mine;
    expect((await one.GET(get(`/api/dashboard/conversations/${uid}`), ctx(uid))).status).toBe(404);
    const update = await one.POST(
      post(`/api/dashboard/conversations/${uid}`, { conversation: { markRead: true } }),
      ctx(uid),
    );
    expect(update.status).toBe(404);
    expect((await update.json()).error_code).toBe("CONVERSATION_NOT_FOUND");
    const reply = await replies.POST(
      post(`/api/dashboard/conversations/${uid}/messages`, { message: { type: "text", text: { body: "hi" } } }),
      ctx(uid),
    );
    expect(reply.status).toBe(404);
    expect(await db.message.count({ where: { customerId: other.customer.id } })).toBe(0);
  });
});

describe("a thread's labels", () => {
  it("are put on and taken off as the member's, the list filters by them; another account's thread and a role without the inbox are refused", async () => {
    const { createLabel } = await import("@/lib/domains/labels/service");
    const me = nextRequest.principal as Principal;
    await createLabel(me, { name: "Dash", color: "teal", description: "" });
    const uid = await uidOf(newer);
    const change = (body: unknown, id = uid) =>
      labelRoute.POST(post(`/api/dashboard/conversations/${id}/labels`, body), ctx(id));
    const added = await change({ add: ["dash"] });
    expect(added.status).toBe(200);
    expect((await added.json()).data).toMatchObject({ conversationUid: uid, labels: ["Dash"], added: ["Dash"] });
    expect((await listed("?label=DASH")).conversations.map((c) => c.uid)).toEqual([uid]);
    const event = await db.webhookEvent.findFirstOrThrow({
      where: { customerId: t.customer.id, type: "conversation.labels_changed" },
      orderBy: { createdAt: "desc" },
    });
    expect((event.payload as { data: unknown }).data).toMatchObject({ conversationUid: uid, by: email });
    const unknown = await change({ add: ["nope"] });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error_code).toBe("LABEL_NOT_FOUND");

    const other = await messagingCustomer();
    const theirs = recipient();
    await contactWrites(other.sender, theirs, "not yours");
    const theirUid = (await db.conversation.findFirstOrThrow({ where: { customerId: other.customer.id } })).id;
    const refused = await change({ add: ["dash"] }, theirUid);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error_code).toBe("CONVERSATION_NOT_FOUND");

    nextRequest.principal = memberPrincipal(t.customer.id, { role: "developer" });
    try {
      expect((await change({ remove: ["dash"] })).status).toBe(403);
    } finally {
      nextRequest.principal = me;
    }
    const removed = await change({ remove: ["Dash"] });
    expect((await removed.json()).data).toMatchObject({ labels: [], removed: ["Dash"] });
  });
});

describe("a reply", () => {
  it("goes out as the signed-in user inside the window", async () => {
    const uid = await uidOf(newer);
    const res = await replies.POST(
      post(`/api/dashboard/conversations/${uid}/messages`, { message: { type: "text", text: { body: "On its way" } } }),
      ctx(uid),
    );
    expect(res.status).toBe(200);
    // The reply is the API's route (the envelope's data).
    expect((await res.json()).data).toMatchObject({ recipient: newer, type: "text", sendRoute: "chat" });
    const thread = (await (await one.GET(get(`/api/dashboard/conversations/${uid}`), ctx(uid))).json()).data;
    expect(thread.messages.at(-1)).toMatchObject({ direction: "outbound", sentBy: "dashboard", sentByLabel: email });
  });

  it("is refused with CUSTOMER_SERVICE_WINDOW_CLOSED when the contact never wrote; a template goes", async () => {
    const uid = await uidOf(stranger);
    const before = await db.message.count({ where: { customerId: t.customer.id, recipient: stranger } });
    const text = await replies.POST(
      post(`/api/dashboard/conversations/${uid}/messages`, { message: { type: "text", text: { body: "Hi" } } }),
      ctx(uid),
    );
    expect(text.status).toBe(400);
    expect(await text.json()).toMatchObject({
      error_code: "CUSTOMER_SERVICE_WINDOW_CLOSED",
      details: { windowExpiresAt: null, lastInboundAt: null },
    });
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: stranger } })).toBe(before);
    const template = await replies.POST(
      post(`/api/dashboard/conversations/${uid}/messages`, {
        message: { type: "template", template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
      }),
      ctx(uid),
    );
    expect(template.status).toBe(200);
  });

  it("from another site is refused before the session is read", async () => {
    const uid = await uidOf(newer);
    const headers = { ...SAME, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    nextRequest.principalAsked = 0;
    const res = await replies.POST(
      post(`/api/dashboard/conversations/${uid}/messages`, { message: { type: "text", text: { body: "x" } } }, headers),
      ctx(uid),
    );
    expect(res.status).toBe(403);
    const close = await one.POST(
      post(`/api/dashboard/conversations/${uid}`, { conversation: { status: "CLOSED" } }, headers),
      ctx(uid),
    );
    expect(close.status).toBe(403);
    expect(nextRequest.principalAsked).toBe(0);
  });
});

describe("the same paths to a token", () => {
  it("answer the public contract: no inbox view, no thread view, no badge, no typing", async () => {
    const { call } = await import("@/test/factory");
    const uid = await uidOf(older);
    const opts = { token: t.globalToken };
    const listedToToken = await call("GET", "/api/v3/conversations", opts);
    expect(listedToToken.status).toBe(200);
    expect(listedToToken.body.data).toMatchObject({ scope: "user" });
    expect(listedToToken.body.data).not.toHaveProperty("unread");
    const read = await call("GET", `/api/v3/conversations/${uid}`, opts);
    expect(read.body.data).toMatchObject({ conversationUid: uid });
    expect(read.body.data).not.toHaveProperty("messages");
    expect((await call("GET", "/api/v3/conversations/unread", opts)).status).toBe(404);
    expect((await call("POST", `/api/v3/conversations/${uid}/typing`, { ...opts, body: {} })).status).toBe(404);
  });
});

it("without a session every handler is 401", async () => {
  const mine = nextRequest.principal;
  nextRequest.principal = undefined;
  try {
    expect((await list.GET(get("/api/dashboard/conversations"), {})).status).toBe(401);
    expect((await unread.GET(get("/api/dashboard/conversations/unread"), {})).status).toBe(401);
  } finally {
    nextRequest.principal = mine;
  }
});

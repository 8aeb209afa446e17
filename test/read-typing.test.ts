// Read receipts and the typing indicator at the provider (docs/inbox.md "Read receipts and
// typing") on a real database, against the simulator's record of mark-as-read calls: the
// thread's typing route once per 20 s and only while the contact waits for an answer; the read
// receipt on open, once per newest message, none with the account setting off (audited); the
// provider-shaped mark-as-read forwarding typing_indicator; other accounts and roles refused;
// the HTTP client's request body; a token's update of the same route sends no receipt and names no closer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { sendReadReceipt, showTyping, TYPING_INTERVAL_MS } from "@/lib/domains/conversations/provider-read";
import { readReceiptsOn, setReadReceipts } from "@/lib/domains/conversations/read-receipts";
import { setProvider } from "@/lib/domains/provider/client";
import { createHttpClient } from "@/lib/domains/provider/http-client";
import { ProviderSimulator, simulatorOptionsFromEnv } from "@/lib/domains/provider/simulator";
import { contactWrites } from "@/test/conversation-fixtures";
import { call } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const one = await import("@/app/api/dashboard/[...path]/route");
const typingRoute = await import("@/app/api/dashboard/[...path]/route");
const replies = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const SAME = { Host: "dash.test", Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" };
const post = (path: string, body: unknown) =>
  new Request(`${ORIGIN}${path}`, { method: "POST", headers: SAME, body: JSON.stringify(body) });
const ctx = (uid: string) => ({ params: Promise.resolve({ uid }) });

const simulator = new ProviderSimulator({ ...simulatorOptionsFromEnv(), replyRate: 0, statusDelayMs: 60_000 });
let t: Awaited<ReturnType<typeof messagingCustomer>>;
let owner: Principal;

beforeAll(async () => {
  setProvider(simulator);
  t = await messagingCustomer();
  const user = await db.user.create({
    data: { customerId: t.customer.id, email: `${recipient().slice(1)}@example.test`, passwordHash: "x" },
  });
  owner = memberPrincipal(t.customer.id, { userId: user.id, email: user.email, role: "owner" });
  nextRequest.principal = owner;
});
afterAll(() => setProvider(undefined));

/** The mark-as-read calls the provider received for this sender's messages. */
const readsOf = (messageId: string) => simulator.reads.filter((r) => r.messageId === messageId);
const conversationOf = async (contact: string) =>
  (await db.conversation.findFirstOrThrow({ where: { customerId: t.customer.id, contactPhoneNumber: contact } })).id;

async function typing(uid: string) {
  const res = await typingRoute.POST(post(`/api/dashboard/conversations/${uid}/typing`, {}), ctx(uid));
  return { status: res.status, body: (await res.json()).data as { typing?: string } };
}
async function open(uid: string) {
  const res = await one.POST(
    post(`/api/dashboard/conversations/${uid}`, { conversation: { markRead: true } }),
    ctx(uid),
  );
  expect(res.status).toBe(200);
}

describe("typing indicator", () => {
  it("reaches the provider once within 20 s of repeated typing, on the waiting message, then again after", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "Where is my order?");
    const uid = await conversationOf(contact);
    expect(await typing(uid)).toEqual({ status: 200, body: { typing: "shown" } });
    expect((await typing(uid)).body.typing).toBe("throttled");
    expect((await typing(uid)).body.typing).toBe("throttled");
    expect(readsOf(inbound).map((r) => [r.phoneNumberId, r.typing])).toEqual([[t.sender.phoneNumberId, true]]);
    // Past the interval (as another instance would see the same row): shown once more.
    expect(await showTyping(owner, uid, new Date(Date.now() + TYPING_INTERVAL_MS + 1000))).toBe("shown");
    expect(readsOf(inbound)).toHaveLength(2);
    // The typing call marked the message read: opening sends no second receipt for it.
    await open(uid);
    expect(readsOf(inbound).filter((r) => !r.typing)).toHaveLength(0);
  });

  it("is not shown once our answer is the newest message", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "Hi");
    const uid = await conversationOf(contact);
    const sent = await replies.POST(
      post(`/api/dashboard/conversations/${uid}/messages`, { message: { type: "text", text: { body: "Hello!" } } }),
      ctx(uid),
    );
    expect(sent.status).toBe(200);
    expect((await typing(uid)).body.typing).toBe("answered");
    expect(readsOf(inbound).filter((r) => r.typing)).toHaveLength(0);
  });

  it("a refusal puts the claim back: the next keystroke tries again", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "Anyone?");
    const uid = await conversationOf(contact);
    simulator.injectErrors(t.sender.phoneNumberId ?? "", [131000]);
    expect((await typing(uid)).body.typing).toBe("refused");
    expect((await typing(uid)).body.typing).toBe("shown");
    expect(readsOf(inbound)).toHaveLength(1);
  });
});

describe("read receipts on open", () => {
  it("marks the newest inbound message read once, and the next one when it arrives", async () => {
    const contact = recipient();
    await contactWrites(t.sender, contact, "one", { at: new Date(Date.now() - 5_000) });
    const second = await contactWrites(t.sender, contact, "two");
    const uid = await conversationOf(contact);
    await open(uid);
    await open(uid);
    expect(await sendReadReceipt(owner, uid)).toBe("none_due");
    expect(readsOf(second).map((r) => r.typing)).toEqual([false]);
    const third = await contactWrites(t.sender, contact, "three");
    await open(uid);
    expect(readsOf(third).map((r) => r.typing)).toEqual([false]);
    expect(readsOf(second)).toHaveLength(1);
  });

  it("are the member's: a token's mark read on the same route sends none, and only a member's close names them", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "from the API side");
    const uid = await conversationOf(contact);
    const viaToken = (conversation: unknown) =>
      call("POST", `/api/v3/conversations/${uid}`, { token: t.globalToken, body: { conversation } });
    expect((await viaToken({ markRead: true })).status).toBe(200);
    expect((await viaToken({ status: "CLOSED" })).status).toBe(200);
    expect(readsOf(inbound)).toHaveLength(0);
    expect((await viaToken({ status: "OPEN", markUnread: true })).status).toBe(200);
    // The member opening it, then closing it (the dashboard's path to the same route).
    await open(uid);
    expect(readsOf(inbound).map((r) => r.typing)).toEqual([false]);
    const close = await one.POST(
      post(`/api/dashboard/conversations/${uid}`, { conversation: { status: "CLOSED" } }),
      ctx(uid),
    );
    expect(close.status).toBe(200);
    const closings = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, type: "conversation.closed" },
      orderBy: { createdAt: "asc" },
    });
    const closedBy = closings
      .map((e) => (e.payload as { data: { conversationUid: string; closedBy: string | null } }).data)
      .filter((d) => d.conversationUid === uid)
      .map((d) => d.closedBy);
    expect(closedBy).toEqual([null, owner.member?.email]);
  });

  it("sends nothing, typing included, with the account setting off; the change is audited", async () => {
    const other = await messagingCustomer();
    const user = await db.user.create({
      data: { customerId: other.customer.id, email: `${recipient().slice(1)}@example.test`, passwordHash: "x" },
    });
    const p = memberPrincipal(other.customer.id, { userId: user.id, email: user.email, role: "admin" });
    expect(await readReceiptsOn(p)).toBe(true);
    const agent = memberPrincipal(other.customer.id, { userId: user.id, email: user.email, role: "agent" });
    await expect(setReadReceipts(agent, false)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await setReadReceipts(p, false);
    await setReadReceipts(p, false);
    expect(await readReceiptsOn(agent)).toBe(false);
    const audit = await db.auditEvent.findMany({
      where: { customerId: other.customer.id, action: "read_receipts.updated" },
    });
    expect(audit.map((a) => [a.actorEmail, a.details])).toEqual([[user.email, { enabled: false }]]);

    const contact = recipient();
    const inbound = await contactWrites(other.sender, contact, "hello?");
    const uid = (
      await db.conversation.findFirstOrThrow({ where: { customerId: other.customer.id, contactPhoneNumber: contact } })
    ).id;
    expect(await sendReadReceipt(p, uid)).toBe("receipts_off");
    expect(await showTyping(p, uid)).toBe("receipts_off");
    expect(readsOf(inbound)).toHaveLength(0);
    await setReadReceipts(p, true);
    expect(await sendReadReceipt(p, uid)).toBe("sent");
    expect(readsOf(inbound)).toHaveLength(1);
  });
});

describe("who may", () => {
  it("another account's member, a developer and an agent of another sender reach nothing", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "private");
    const uid = await conversationOf(contact);
    const stranger = await messagingCustomer();
    const outsider = memberPrincipal(stranger.customer.id, { role: "owner" });
    await expect(showTyping(outsider, uid)).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
    await expect(sendReadReceipt(outsider, uid)).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
    const developer = memberPrincipal(t.customer.id, { role: "developer" });
    await expect(showTyping(developer, uid)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(sendReadReceipt(developer, uid)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const elsewhere = memberPrincipal(t.customer.id, { role: "agent", senderIds: [t.otherSender.id] });
    await expect(showTyping(elsewhere, uid)).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
    // Through the route: the session's role decides before anything reaches the provider.
    nextRequest.principal = developer;
    try {
      expect((await typing(uid)).status).toBe(403);
    } finally {
      nextRequest.principal = owner;
    }
    expect(readsOf(inbound)).toHaveLength(0);
  });
});

describe("provider-shaped mark-as-read", () => {
  it("forwards the read, with typing_indicator when given, and never another account's message", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "status?");
    const plain = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", status: "read", message_id: inbound },
    });
    expect(plain.status).toBe(200);
    expect(readsOf(inbound).map((r) => r.typing)).toEqual([false]);
    const withTyping = await call("POST", `/api/v3/${t.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", status: "read", message_id: inbound, typing_indicator: { type: "text" } },
    });
    expect(withTyping.status).toBe(200);
    expect(readsOf(inbound).map((r) => r.typing)).toEqual([false, true]);

    const stranger = await messagingCustomer();
    const foreign = await call("POST", "/api/v3/messages", {
      token: stranger.globalToken,
      body: { messaging_product: "whatsapp", status: "read", message_id: inbound, typing_indicator: { type: "text" } },
    });
    expect(foreign.status).toBe(400);
    expect(readsOf(inbound)).toHaveLength(2);
  });

  it("answers the provider's refusal instead of a success", async () => {
    const contact = recipient();
    const inbound = await contactWrites(t.sender, contact, "ping");
    simulator.injectErrors(t.sender.phoneNumberId ?? "", [131009]);
    const refused = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", status: "read", message_id: inbound, typing_indicator: { type: "text" } },
    });
    expect(refused.status).toBe(400);
    expect(readsOf(inbound)).toHaveLength(0);
  });
});

describe("the HTTP provider client", () => {
  it("posts the provider's mark-as-read body, typing_indicator only when asked, and maps a refusal", async () => {
    const asked: { url: string; body: unknown }[] = [];
    const client = createHttpClient({
      baseUrl: "https://graph.example.test",
      apiVersion: "v21.0",
      timeoutMs: 1000,
      tokenFor: () => "test-token",
      fetch: (async (url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        asked.push({ url: String(url), body });
        return body.message_id === "wamid.unknown"
          ? Response.json({ error: { message: "Invalid parameter", code: 100 } }, { status: 400 })
          : Response.json({ success: true });
      }) as typeof fetch,
    });
    const sender = { phoneNumberId: "1234", phoneNumber: "+15550001234", wabaId: null };
    expect(await client.markRead(sender, "wamid.a")).toEqual({ ok: true });
    expect(await client.markRead(sender, "wamid.b", { typing: true })).toEqual({ ok: true });
    expect(await client.markRead(sender, "wamid.unknown")).toMatchObject({ ok: false, code: 100, retryable: false });
    expect(asked.map((a) => a.url)).toEqual(Array(3).fill("https://graph.example.test/v21.0/1234/messages"));
    expect(asked.map((a) => a.body)).toEqual([
      { messaging_product: "whatsapp", status: "read", message_id: "wamid.a" },
      { messaging_product: "whatsapp", status: "read", message_id: "wamid.b", typing_indicator: { type: "text" } },
      { messaging_product: "whatsapp", status: "read", message_id: "wamid.unknown" },
    ]);
  });
});

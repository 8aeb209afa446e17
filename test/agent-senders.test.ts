// An agent limited to some senders sees only those conversations everywhere (docs/members.md):
// the inbox list, its unread count, search, one conversation by uid, its actions, the
// message log and the sender switcher; and a change of role applies on the next request.
// The dashboard handlers run for real; only next-auth's session read is replaced.
import { beforeAll, describe, expect, it } from "vitest";
import { changeMember } from "@/lib/domains/members/service";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { listSenders, resolveSender } from "@/lib/domains/senders/service";
import { nextRequest } from "@/test/next-request-double";
import { contactWrites } from "./conversation-fixtures";
import { uniquePhone } from "./factory";
import { createMemberOf, type TestMember } from "./member-fixtures";
import { messagingCustomer } from "./messaging-fixtures";

const listRoute = await import("@/app/api/dashboard/[...path]/route");
const unreadRoute = await import("@/app/api/dashboard/[...path]/route");
const oneRoute = await import("@/app/api/dashboard/[...path]/route");
const replyRoute = await import("@/app/api/dashboard/[...path]/route");
const messagesRoute = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { Host: "dash.test" } });
const post = (path: string, body: unknown) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "dash.test", Origin: ORIGIN, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const ctx = (uid: string) => ({ params: Promise.resolve({ uid }) });

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let agent: TestMember;
let owner: TestMember;
const alice = uniquePhone();
const bob = uniquePhone();
let aliceUid: string;
let bobUid: string;

async function listAs(member: TestMember, query = "") {
  nextRequest.session = member.session;
  const res = await listRoute.GET(get(`/api/dashboard/conversations${query}`), {});
  expect(res.status).toBe(200);
  return (await res.json()).data as { conversations: { conversationUid: string }[]; unread: number };
}

beforeAll(async () => {
  t = await messagingCustomer();
  owner = await createMemberOf(t.customer.id, "owner");
  agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
  // Alice writes to the agent's sender, Bob to the other one; both unread.
  await contactWrites(t.sender, alice, "Hi from Alice");
  await contactWrites(t.otherSender, bob, "Hi from Bob");
  const all = await listAs(owner, "?limit=50");
  const uids = all.conversations.map((c) => c.conversationUid);
  expect(uids).toHaveLength(2);
  const { db } = await import("@/lib/db");
  aliceUid = (await db.conversation.findFirstOrThrow({ where: { contactPhoneNumber: alice } })).id;
  bobUid = (await db.conversation.findFirstOrThrow({ where: { contactPhoneNumber: bob } })).id;
});

describe("an agent limited to one sender", () => {
  it("lists and counts only that sender's conversations; the owner sees both", async () => {
    const mine = await listAs(agent);
    expect(mine.conversations.map((c) => c.conversationUid)).toEqual([aliceUid]);
    expect(mine.unread).toBe(1);
    nextRequest.session = agent.session;
    const badge = await unreadRoute.GET(get("/api/dashboard/conversations/unread"), {});
    expect((await badge.json()).data).toEqual({ unread: 1 });
    const everyone = await listAs(owner);
    expect(everyone.unread).toBe(2);
  });

  it("search finds nothing on another sender, even by the exact number", async () => {
    expect((await listAs(agent, `?search=${encodeURIComponent(bob)}`)).conversations).toEqual([]);
    expect((await listAs(agent, "?search=Bob")).conversations).toEqual([]);
    expect((await listAs(agent, `?search=${encodeURIComponent(alice)}`)).conversations).toHaveLength(1);
    expect((await listAs(owner, `?search=${encodeURIComponent(bob)}`)).conversations).toHaveLength(1);
  });

  it("naming the other sender is refused, not answered with its data", async () => {
    nextRequest.session = agent.session;
    const list = await listRoute.GET(get(`/api/dashboard/conversations?sender=${t.otherSender.phoneNumber}`), {});
    expect(list.status).toBe(403);
    expect((await list.json()).error_code).toBe("SENDER_NOT_ALLOWED");
    const log = await messagesRoute.GET(get(`/api/dashboard/messages?sender=${t.otherSender.phoneNumber}`));
    expect(log.status).toBe(403);
  });

  it("another sender's conversation by uid is not found: read, mark read, close, reply", async () => {
    nextRequest.session = agent.session;
    const read = await oneRoute.GET(get(`/api/dashboard/conversations/${bobUid}`), ctx(bobUid));
    expect(read.status).toBe(404);
    expect((await read.json()).error_code).toBe("CONVERSATION_NOT_FOUND");
    const close = await oneRoute.POST(
      post(`/api/dashboard/conversations/${bobUid}`, { conversation: { status: "CLOSED", markRead: true } }),
      ctx(bobUid),
    );
    expect(close.status).toBe(404);
    const reply = await replyRoute.POST(
      post(`/api/dashboard/conversations/${bobUid}/messages`, { message: { type: "text", text: { body: "hi" } } }),
      ctx(bobUid),
    );
    expect(reply.status).toBe(404);
    // Nothing changed on Bob's conversation.
    nextRequest.session = owner.session;
    const bobs = (await (await oneRoute.GET(get(`/api/dashboard/conversations/${bobUid}`), ctx(bobUid))).json()).data;
    expect(bobs.conversation).toMatchObject({ status: "OPEN", unreadCount: 1 });
    expect(bobs.messages).toHaveLength(1);
    // Its own conversation works.
    nextRequest.session = agent.session;
    const own = await oneRoute.GET(get(`/api/dashboard/conversations/${aliceUid}`), ctx(aliceUid));
    expect(own.status).toBe(200);
  });

  it("the sender switcher and the default sender are the agent's only", async () => {
    const p = await principalForSession(agent.session);
    if (!p) throw new Error("the agent has a session");
    expect((await listSenders(p)).map((s) => s.phoneNumber)).toEqual([t.sender.phoneNumber]);
    expect((await resolveSender(p, undefined))?.id).toBe(t.sender.id);
    await expect(resolveSender(p, t.otherSender.phoneNumber)).rejects.toMatchObject({ code: "SENDER_NOT_ALLOWED" });
  });

  it("becoming an admin shows every sender on the next request; back to agent narrows again", async () => {
    const ownerP = await principalForSession(owner.session);
    if (!ownerP) throw new Error("the owner has a session");
    await changeMember(ownerP, agent.userId, { role: "admin", senders: [] });
    expect((await listAs(agent)).conversations).toHaveLength(2);
    await changeMember(ownerP, agent.userId, { role: "agent", senders: [t.sender.phoneNumber] });
    expect((await listAs(agent)).conversations.map((c) => c.conversationUid)).toEqual([aliceUid]);
  });
});

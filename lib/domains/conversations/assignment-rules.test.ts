// The assignment rules of the shared inbox (docs/inbox.md "Assignment") through the
// dashboard handlers, signed in as real members (only next-auth's session read is replaced):
// a member's reply takes an unassigned conversation, round-robin auto-assignment among a
// sender's online agents with its cap, agents limited to their senders, the "Mine" filter,
// notes written by members, and saved replies (owners and admins manage, every inbox member reads).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { nextAgent, setAutoAssign, touchPresence } from "@/lib/domains/conversations/auto-assign";
import { createSavedReply, listSavedReplies } from "@/lib/domains/conversations/saved-replies";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const listRoute = await import("@/app/api/dashboard/[...path]/route");
const oneRoute = await import("@/app/api/dashboard/[...path]/route");
const replyRoute = await import("@/app/api/dashboard/[...path]/route");
const notesRoute = await import("@/app/api/dashboard/[...path]/route");
const assigneesRoute = await import("@/app/api/dashboard/[...path]/route");
const savedRoute = await import("@/app/api/dashboard/[...path]/route");
const unreadRoute = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { Host: "dash.test" } });
const post = (path: string, body: unknown) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "dash.test", Origin: ORIGIN, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const ctx = (uid: string) => ({ params: Promise.resolve({ uid }) });
const as = (m: TestMember) => {
  nextRequest.session = m.session;
};
const principal = async (m: TestMember) => {
  const p = await principalForSession(m.session);
  if (!p) throw new Error("no principal");
  return p;
};

type T = Awaited<ReturnType<typeof messagingCustomer>>;
async function conversationWith(t: T, sender = t.sender) {
  const contact = uniquePhone();
  await contactWrites(sender, contact, "Hello?");
  return db.conversation.findFirstOrThrow({ where: { contactPhoneNumber: contact, senderId: sender.id } });
}
const assigneeOf = async (id: string) =>
  (await db.conversation.findUniqueOrThrow({ where: { id }, select: { assigneeId: true } })).assigneeId;

describe("a reply assigns", () => {
  let t: T;
  let agent: TestMember;
  let owner: TestMember;
  beforeAll(async () => {
    t = await messagingCustomer();
    agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    owner = await createMemberOf(t.customer.id, "owner");
  });

  it("an unassigned conversation to the member who replies; an assigned one keeps its assignee", async () => {
    const c = await conversationWith(t);
    as(agent);
    const res = await replyRoute.POST(
      post(`/api/dashboard/conversations/${c.id}/messages`, {
        message: { type: "text", text: { body: "On it" } },
      }),
      ctx(c.id),
    );
    expect(res.status).toBe(200);
    expect(await assigneeOf(c.id)).toBe(agent.userId);
    const event = await db.webhookEvent.findFirst({
      where: { customerId: t.customer.id, type: "conversation.assigned" },
    });
    expect(event?.payload).toMatchObject({ data: { conversationUid: c.id, assignedBy: agent.email } });

    as(owner);
    const again = await replyRoute.POST(
      post(`/api/dashboard/conversations/${c.id}/messages`, {
        message: { type: "text", text: { body: "Owner here" } },
      }),
      ctx(c.id),
    );
    expect(again.status).toBe(200);
    expect(await assigneeOf(c.id)).toBe(agent.userId);
  });

  it("an API token's reply assigns nobody (tokens are not members)", async () => {
    const c = await conversationWith(t);
    const res = await call("POST", `/api/v3/conversations/${c.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "text", text: { body: "Automated" } } },
    });
    expect(res.status).toBe(200);
    expect(await assigneeOf(c.id)).toBeNull();
  });
});

describe("agents limited to their senders", () => {
  it("cannot see or assign another sender's conversation, nor give theirs to an agent without the sender", async () => {
    const t = await messagingCustomer();
    const agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const elsewhere = await createMemberOf(t.customer.id, "agent", [t.otherSender.phoneNumber]);
    const theirs = await conversationWith(t, t.otherSender);
    const mine = await conversationWith(t);
    as(agent);
    const hidden = await oneRoute.POST(
      post(`/api/dashboard/conversations/${theirs.id}`, { conversation: { assignee: agent.email } }),
      ctx(theirs.id),
    );
    expect((await hidden.json()).error_code).toBe("CONVERSATION_NOT_FOUND");
    expect(await assigneeOf(theirs.id)).toBeNull();
    const note = await notesRoute.POST(
      post(`/api/dashboard/conversations/${theirs.id}/notes`, { note: { text: "x" } }),
      ctx(theirs.id),
    );
    expect((await note.json()).error_code).toBe("CONVERSATION_NOT_FOUND");

    const refused = await oneRoute.POST(
      post(`/api/dashboard/conversations/${mine.id}`, { conversation: { assignee: elsewhere.email } }),
      ctx(mine.id),
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error_code).toBe("VALIDATION_FAILED");
    // The picker offers only who may take it.
    const picker = await assigneesRoute.GET(get(`/api/dashboard/conversations/${mine.id}/assignees`));
    const emails = ((await picker.json()).data.members as { email: string }[]).map((m) => m.email);
    expect(emails).toContain(agent.email);
    expect(emails).not.toContain(elsewhere.email);

    const self = await oneRoute.POST(
      post(`/api/dashboard/conversations/${mine.id}`, { conversation: { assignee: agent.email } }),
      ctx(mine.id),
    );
    expect((await self.json()).data.assignee).toEqual({ email: agent.email, name: null });
    const list = await listRoute.GET(get("/api/dashboard/conversations?assignee=me"), {});
    expect(((await list.json()).data.conversations as { uid: string }[]).map((c) => c.uid)).toEqual([mine.id]);
    const unassigned = await listRoute.GET(get("/api/dashboard/conversations?assignee=none"), {});
    expect((await unassigned.json()).data.conversations).toEqual([]);

    const written = await notesRoute.POST(
      post(`/api/dashboard/conversations/${mine.id}/notes`, { note: { text: "Called them" } }),
      ctx(mine.id),
    );
    expect(written.status).toBe(201);
    const notes = await notesRoute.GET(get(`/api/dashboard/conversations/${mine.id}/notes`), ctx(mine.id));
    expect((await notes.json()).data.notes[0]).toMatchObject({
      text: "Called them",
      author: { type: "member", email: agent.email },
    });
  });
});

describe("round-robin auto-assignment", () => {
  it("picks the next agent after the last one, wrapping, skipping those at the cap", () => {
    const agents = [
      { id: "a", open: 0 },
      { id: "b", open: 5 },
      { id: "c", open: 1 },
    ];
    expect(nextAgent(agents, null, 2)?.id).toBe("a");
    expect(nextAgent(agents, "a", 2)?.id).toBe("c");
    expect(nextAgent(agents, "c", 2)?.id).toBe("a");
    // Only "a" is under a cap of 1: it gets the turn again.
    expect(nextAgent(agents, "a", 1)?.id).toBe("a");
    expect(nextAgent(agents, null, 0)).toBeNull();
    expect(nextAgent([], null, 1)).toBeNull();
  });

  it("hands new conversations in turn to the sender's online agents, up to the cap", async () => {
    const t = await messagingCustomer();
    const one = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const two = await createMemberOf(t.customer.id, "agent");
    const offline = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    const otherSenders = await createMemberOf(t.customer.id, "agent", [t.otherSender.phoneNumber]);
    const owner = await createMemberOf(t.customer.id, "owner");
    // Online: a dashboard tab polled just now (the unread badge's handler calls touchPresence).
    for (const m of [one, two, otherSenders, owner]) await touchPresence(await principal(m));
    await db.user.update({ where: { id: offline.userId }, data: { lastSeenAt: new Date(Date.now() - 10 * 60_000) } });

    // Off by default: nobody is assigned.
    const before = await conversationWith(t);
    expect(await assigneeOf(before.id)).toBeNull();

    await db.sender.update({ where: { id: t.sender.id }, data: { autoAssign: true, autoAssignCap: 2 } });
    const got: (string | null)[] = [];
    for (let i = 0; i < 5; i++) got.push(await assigneeOf((await conversationWith(t)).id));
    const [first, second] = [one.userId, two.userId].sort();
    expect(got).toEqual([first, second, first, second, null]);
    const events = await db.webhookEvent.count({ where: { customerId: t.customer.id, type: "conversation.assigned" } });
    expect(events).toBe(4);

    // Closing one frees a place under the cap; a new message in an already assigned
    // conversation does not move it.
    const taken = await db.conversation.findFirstOrThrow({ where: { assigneeId: first } });
    await db.conversation.update({ where: { id: taken.id }, data: { status: "CLOSED" } });
    await contactWrites(t.sender, before.contactPhoneNumber, "Still there?");
    expect(await assigneeOf(before.id)).toBe(first);
  });
});

describe("presence and the setting", () => {
  it("an open dashboard (the unread badge's poll) makes a member online; owners turn auto-assignment on", async () => {
    const t = await messagingCustomer();
    const agent = await createMemberOf(t.customer.id, "agent");
    const owner = await createMemberOf(t.customer.id, "owner");
    expect((await db.user.findUniqueOrThrow({ where: { id: agent.userId } })).lastSeenAt).toBeNull();
    as(agent);
    expect((await unreadRoute.GET(get("/api/dashboard/conversations/unread"), {})).status).toBe(200);
    const seen = (await db.user.findUniqueOrThrow({ where: { id: agent.userId } })).lastSeenAt;
    expect(Date.now() - (seen?.getTime() ?? 0)).toBeLessThan(60_000);

    await setAutoAssign(await principal(owner), { sender: t.sender.phoneNumber, autoAssign: true, cap: 3 });
    expect(await db.sender.findUniqueOrThrow({ where: { id: t.sender.id } })).toMatchObject({
      autoAssign: true,
      autoAssignCap: 3,
    });
    await expect(
      setAutoAssign(await principal(agent), { sender: t.sender.phoneNumber, autoAssign: false, cap: 1 }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    const stranger = await messagingCustomer();
    await expect(
      setAutoAssign(await principal(owner), { sender: stranger.sender.phoneNumber, autoAssign: true, cap: 1 }),
    ).rejects.toMatchObject({ code: "SENDER_NOT_FOUND" });
    expect((await db.sender.findUniqueOrThrow({ where: { id: stranger.sender.id } })).autoAssign).toBe(false);
  });
});

describe("saved replies", () => {
  it("owners manage them, every inbox member of the account reads them, other accounts never", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const owner = await createMemberOf(t.customer.id, "owner");
    const agent = await createMemberOf(t.customer.id, "agent");
    const theirOwner = await createMemberOf(stranger.customer.id, "owner");

    await createSavedReply(await principal(owner), { shortcut: "thanks", text: "Thank you for writing!" });
    await expect(createSavedReply(await principal(owner), { shortcut: "thanks", text: "Twice" })).rejects.toMatchObject(
      { code: "VALIDATION_FAILED" },
    );
    await expect(
      createSavedReply(await principal(agent), { shortcut: "mine", text: "An agent's" }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });

    as(agent);
    const res = await savedRoute.GET(get("/api/dashboard/saved-replies"));
    expect((await res.json()).data.savedReplies).toMatchObject([
      { shortcut: "thanks", text: "Thank you for writing!" },
    ]);
    expect(await listSavedReplies(await principal(theirOwner))).toEqual([]);
  });
});

// The shared inbox through the real router on v2 and v3 (docs/conversations.md "API", docs/inbox.md "Assignment"
// and "Internal notes"): `assignee` on a conversation (set, filter, unset), VALIDATION_FAILED for
// anyone who may not handle it, conversation.assigned, and notes that are stored, listed
// newest first and never sent to the provider; another customer's uid is CONVERSATION_NOT_FOUND.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { createMemberOf } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

async function conversationWith(t: Awaited<ReturnType<typeof messagingCustomer>>, sender = t.sender) {
  const contact = uniquePhone();
  await contactWrites(sender, contact, "Where is my order?");
  const c = await db.conversation.findFirstOrThrow({ where: { contactPhoneNumber: contact, senderId: sender.id } });
  return { uid: c.id, contact };
}

const assign = (token: string, uid: string, assignee: string | null, v = "v3") =>
  call("POST", `/api/${v}/conversations/${uid}`, { token, body: { conversation: { assignee } } });

describe("assignee", () => {
  it("assigns to a member, filters by assignee and none, unassigns, and announces each change", async () => {
    const t = await messagingCustomer();
    const agent = await createMemberOf(t.customer.id, "agent");
    const { uid } = await conversationWith(t);
    const other = await conversationWith(t);

    const fresh = await call("GET", `/api/v2/conversations/${uid}`, { token: t.globalToken });
    expect(fresh.body.data.assignee).toBeNull();

    const res = await assign(t.globalToken, uid, agent.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body.data.assignee).toEqual({ email: agent.email, name: null });

    for (const v of ["v2", "v3"]) {
      const mine = await call("GET", `/api/${v}/conversations`, {
        token: t.globalToken,
        query: { assignee: agent.email },
      });
      expect(mine.body.data.conversations.map((c: { uid: string }) => c.uid)).toEqual([uid]);
      const none = await call("GET", `/api/${v}/conversations`, { token: t.globalToken, query: { assignee: "none" } });
      expect(none.body.data.conversations.map((c: { uid: string }) => c.uid)).toEqual([other.uid]);
    }
    const nobody = await call("GET", "/api/v3/conversations", {
      token: t.globalToken,
      query: { assignee: "nobody@example.test" },
    });
    expect(nobody.body.data.conversations).toEqual([]);

    // The same assignee again changes nothing and announces nothing.
    expect((await assign(t.globalToken, uid, agent.email, "v2")).status).toBe(200);
    const unassigned = await assign(t.globalToken, uid, null);
    expect(unassigned.body.data.assignee).toBeNull();

    const events = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, type: "conversation.assigned" },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => (e.payload as { data: { assignee: unknown } }).data.assignee)).toEqual([
      { email: agent.email, name: null },
      null,
    ]);
    expect(events[0]?.payload).toMatchObject({
      type: "conversation.assigned",
      data: { conversationUid: uid, assignedBy: "global" },
    });
  });

  it("refuses anyone who may not handle it with VALIDATION_FAILED, and writes nothing", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const theirMember = await createMemberOf(stranger.customer.id, "owner");
    const developer = await createMemberOf(t.customer.id, "developer");
    const otherAgent = await createMemberOf(t.customer.id, "agent", [t.otherSender.phoneNumber]);
    const owner = await createMemberOf(t.customer.id, "owner");
    const { uid } = await conversationWith(t);
    expect((await assign(t.globalToken, uid, owner.email)).status).toBe(200);

    for (const email of ["nobody@example.test", theirMember.email, developer.email, otherAgent.email]) {
      const res = await assign(t.globalToken, uid, email);
      expect(res.status, email).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(JSON.stringify(res.body.details)).toContain("conversation.assignee");
    }
    const notEmail = await assign(t.globalToken, uid, "not-an-email");
    expect(notEmail.body.error_code).toBe("VALIDATION_FAILED");
    const after = await call("GET", `/api/v3/conversations/${uid}`, { token: t.globalToken });
    expect(after.body.data.assignee.email).toBe(owner.email);
    expect(await db.webhookEvent.count({ where: { customerId: t.customer.id, type: "conversation.assigned" } })).toBe(
      1,
    );
  });

  it("another customer's conversation is CONVERSATION_NOT_FOUND and stays unassigned", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const theirs = await conversationWith(stranger);
    const mine = await createMemberOf(t.customer.id, "owner");
    const res = await assign(t.globalToken, theirs.uid, mine.email);
    expect(res.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    expect((await db.conversation.findUniqueOrThrow({ where: { id: theirs.uid } })).assigneeId).toBeNull();
    const scoped = await conversationWith(t, t.otherSender);
    const bySenderToken = await assign(t.scopedToken, scoped.uid, mine.email);
    expect(bySenderToken.body.error_code).toBe("CONVERSATION_NOT_FOUND");
  });
});

describe("internal notes", () => {
  it("are stored with their author, listed newest first, and never sent to the contact", async () => {
    const sim = getSimulator();
    if (!sim) throw new Error("tests expect the simulator");
    const t = await messagingCustomer();
    const { uid, contact } = await conversationWith(t);
    const messagesBefore = await db.message.count({ where: { customerId: t.customer.id } });

    const first = await call("POST", `/api/v3/conversations/${uid}/notes`, {
      token: t.globalToken,
      body: { note: { text: "Refund approved by finance" } },
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      text: "Refund approved by finance",
      author: { type: "api_token", tokenName: "global" },
    });
    expect(first.body.data.noteUid).toMatch(/^note_/);
    const second = await call("POST", `/api/v2/conversations/${uid}/notes`, {
      token: t.globalToken,
      body: { note: { text: "Customer called back" } },
    });
    expect(second.status).toBe(201);

    for (const v of ["v2", "v3"]) {
      const list = await call("GET", `/api/${v}/conversations/${uid}/notes`, { token: t.globalToken });
      expect(list.status).toBe(200);
      expect(list.body.data.notes.map((n: { text: string }) => n.text)).toEqual([
        "Customer called back",
        "Refund approved by finance",
      ]);
      expect(list.body.data.items).toEqual(list.body.data.notes);
      expect(list.body.data.pagination.total).toBe(2);
    }

    // Nothing reached the provider, no message was stored, and the thread shows no note.
    expect(sim.acceptedTo(contact)).toHaveLength(0);
    expect(await db.message.count({ where: { customerId: t.customer.id } })).toBe(messagesBefore);
    const thread = await call("GET", `/api/v3/conversations/${uid}/messages`, { token: t.globalToken });
    expect(JSON.stringify(thread.body.data.messages)).not.toContain("Refund approved");
  });

  it("refuses an empty or too long note, and another customer's conversation", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const theirs = await conversationWith(stranger);
    const { uid } = await conversationWith(t);
    for (const text of ["", "x".repeat(4097)]) {
      const res = await call("POST", `/api/v3/conversations/${uid}/notes`, {
        token: t.globalToken,
        body: { note: { text } },
      });
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
    }
    const write = await call("POST", `/api/v3/conversations/${theirs.uid}/notes`, {
      token: t.globalToken,
      body: { note: { text: "peek" } },
    });
    expect(write.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    const read = await call("GET", `/api/v3/conversations/${theirs.uid}/notes`, { token: t.globalToken });
    expect(read.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    expect(await db.conversationNote.count({ where: { conversationId: theirs.uid } })).toBe(0);
  });
});

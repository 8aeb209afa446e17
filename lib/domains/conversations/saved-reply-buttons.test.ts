// Saved replies with reply buttons (docs/inbox.md "Saved replies"): the limits of /chat's
// buttons checked when one is saved, naming the button; kept and read back by the service and
// the reply box's route; the account's own only; and what the reply box sends for one (a
// buttons message whose body is the text) goes out through the conversation reply route, at
// the very bounds the saved reply allows.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { SavedReplyInput, SavedReplyUpdateInput } from "@/lib/domains/conversations/inbox-settings-schemas";
import { INTERACTIVE_LIMITS } from "@/lib/domains/conversations/interactive-buttons";
import {
  createSavedReply,
  deleteSavedReply,
  listSavedReplies,
  updateSavedReply,
} from "@/lib/domains/conversations/saved-replies";
import { getSimulator } from "@/lib/domains/provider/client";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { contactWrites } from "@/test/conversation-fixtures";
import { uniquePhone } from "@/test/factory";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const replyRoute = await import("@/app/api/dashboard/[...path]/route");
const savedRoute = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const post = (path: string, body: unknown) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "dash.test", Origin: ORIGIN, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const principal = async (m: TestMember) => {
  const p = await principalForSession(m.session);
  if (!p) throw new Error("no principal");
  return p;
};

const L = INTERACTIVE_LIMITS;
const button = (i: number, over: Partial<{ id: string; title: string }> = {}) => ({
  id: `b${i}`,
  title: `Option ${i}`,
  ...over,
});
/** The refusal's issues as "path: message". */
function refusal(value: unknown): string[] {
  const parsed = SavedReplyInput.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("saved reply buttons: the limits of /chat's buttons, each at its bound and one past it", () => {
  it("checks the count, titles, ids and the text that becomes the body", () => {
    const base = { shortcut: "menu", text: "How can we help?" };
    expect(refusal({ ...base, buttons: [1, 2, 3].map((i) => button(i)) })).toEqual([]);
    expect(refusal({ ...base, buttons: [1, 2, 3, 4].map((i) => button(i)) })).toEqual([
      `buttons: At most ${L.buttons} buttons`,
    ]);
    expect(refusal({ ...base, buttons: [button(1, { title: "t".repeat(L.buttonTitle) })] })).toEqual([]);
    expect(refusal({ ...base, buttons: [button(1), button(2, { title: "t".repeat(L.buttonTitle + 1) })] })).toEqual([
      `buttons.1.title: Button 2: a title is 1 to ${L.buttonTitle} characters`,
    ]);
    expect(refusal({ ...base, buttons: [button(1, { title: "  " })] })).toEqual([
      `buttons.0.title: Button 1: a title is 1 to ${L.buttonTitle} characters`,
    ]);
    expect(refusal({ ...base, buttons: [button(1, { id: "i".repeat(L.buttonId) })] })).toEqual([]);
    expect(refusal({ ...base, buttons: [button(1, { id: "i".repeat(L.buttonId + 1) })] })).toEqual([
      `buttons.0.id: Button 1: a reply id is 1 to ${L.buttonId} characters`,
    ]);
    expect(refusal({ ...base, buttons: [button(1, { id: "" })] })).toEqual([
      `buttons.0.id: Button 1: a reply id is 1 to ${L.buttonId} characters`,
    ]);
    expect(refusal({ ...base, buttons: [button(1), button(2, { id: "b1" })] })).toEqual([
      "buttons.1.id: Button 2: each button needs its own reply id",
    ]);
    // The text is the buttons message's body: 1,024 characters with buttons, 4,096 without.
    expect(refusal({ ...base, text: "x".repeat(L.body), buttons: [button(1)] })).toEqual([]);
    expect(refusal({ ...base, text: "x".repeat(L.body + 1), buttons: [button(1)] })).toEqual([
      "text: At most 1,024 characters with buttons",
    ]);
    expect(refusal({ ...base, text: "x".repeat(4096), buttons: [] })).toEqual([]);
    expect(refusal({ ...base, text: "x".repeat(4096) })).toEqual([]);
    // A change is checked the same way.
    expect(SavedReplyUpdateInput.safeParse({ ...base, id: "sr_1", buttons: [button(1), button(1)] }).success).toBe(
      false,
    );
  });
});

describe("saved replies holding buttons", () => {
  it("are kept and read back by the owner's service and the reply box's route; one account's never reach another's", async () => {
    const t = await messagingCustomer();
    const stranger = await messagingCustomer();
    const owner = await createMemberOf(t.customer.id, "owner");
    const agent = await createMemberOf(t.customer.id, "agent");
    const theirOwner = await createMemberOf(stranger.customer.id, "owner");
    const buttons = [
      button(1, { id: "track", title: "Track my order" }),
      button(2, { id: "agent", title: "A person" }),
    ];

    const created = await createSavedReply(
      await principal(owner),
      SavedReplyInput.parse({ shortcut: "/Menu", text: "How can we help?", buttons }),
    );
    expect(created).toMatchObject({ shortcut: "menu", text: "How can we help?", buttons });
    await createSavedReply(await principal(owner), SavedReplyInput.parse({ shortcut: "thanks", text: "Thanks!" }));
    // Agents read them (with their buttons), but do not manage them.
    await expect(
      createSavedReply(await principal(agent), SavedReplyInput.parse({ shortcut: "x", text: "y", buttons })),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    nextRequest.session = agent.session;
    const res = await savedRoute.GET(
      new Request(`${ORIGIN}/api/dashboard/saved-replies`, { headers: { Host: "dash.test" } }),
    );
    expect((await res.json()).data.savedReplies).toEqual([
      { id: created.id, shortcut: "menu", text: "How can we help?", buttons },
      { id: expect.any(String), shortcut: "thanks", text: "Thanks!", buttons: null },
    ]);

    // Another account's owner neither sees nor changes nor deletes it.
    expect(await listSavedReplies(await principal(theirOwner))).toEqual([]);
    const theirs = await principal(theirOwner);
    await expect(
      updateSavedReply(theirs, created.id, SavedReplyInput.parse({ shortcut: "menu", text: "Mine now", buttons: [] })),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(deleteSavedReply(theirs, created.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await db.savedReply.findUniqueOrThrow({ where: { id: created.id } })).buttons).toEqual(buttons);

    // The owner takes the buttons off: a text reply again.
    await updateSavedReply(
      await principal(owner),
      created.id,
      SavedReplyInput.parse({ shortcut: "menu", text: "How can we help?", buttons: [] }),
    );
    const [menu] = await listSavedReplies(await principal(owner));
    expect(menu).toMatchObject({ shortcut: "menu", buttons: null });
  });

  it("go out as the reply box sends them: a buttons message whose body is the text, at the saved reply's bounds", async () => {
    const t = await messagingCustomer();
    const owner = await createMemberOf(t.customer.id, "owner");
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello?");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { senderId: t.sender.id, contactPhoneNumber: contact },
    });
    // The largest saved reply with buttons there may be.
    const saved = await createSavedReply(
      await principal(owner),
      SavedReplyInput.parse({
        shortcut: "biggest",
        text: "b".repeat(L.body),
        buttons: [1, 2, 3].map((i) => ({ id: `${i}`.repeat(L.buttonId), title: `${i}`.repeat(L.buttonTitle) })),
      }),
    );
    nextRequest.session = owner.session;
    const res = await replyRoute.POST(
      post(`/api/dashboard/conversations/${conversation.id}/messages`, {
        message: { type: "buttons", interactive: { body: saved.text, buttons: saved.buttons } },
      }),
      { params: Promise.resolve({ uid: conversation.id }) },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { data: message } = (await res.json()) as { data: { messageUid: string; messageId: string; status: string } };
    expect(message.status).toBe("accepted");
    // The provider received it as an interactive message.
    const sent = getSimulator()?.accepted.find((m) => m.messageId === message.messageId);
    expect(sent).toMatchObject({ type: "interactive" });
    const row = await db.message.findUniqueOrThrow({ where: { id: message.messageUid } });
    expect(row.payload).toMatchObject({
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: saved.text },
        action: { buttons: saved.buttons?.map((b) => ({ type: "reply", reply: b })) },
      },
    });
  });
});

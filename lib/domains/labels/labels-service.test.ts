// The labels service called directly (the API's routes are labels-api.test.ts): unique names
// whatever the case, what a change reports, conversation.labels_changed, contacts by phone
// number across books and conversations, permissions, and isolation between accounts.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { operatorPrincipal, systemPrincipal } from "@/lib/domains/auth/principal";
import { contactWrites } from "@/test/conversation-fixtures";
import { createTestCustomer, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import {
  changeContactLabels,
  changeConversationLabels,
  changeConversationLabelsIn,
  contactLabels,
  conversationLabels,
  readContactLabels,
} from "./apply";
import { createLabel, deleteLabel, getLabel, listLabels, updateLabel } from "./service";

async function withConversation() {
  const t = await createTestCustomer();
  const contact = uniquePhone();
  await contactWrites(t.sender, contact, "refund please");
  const conversation = await db.conversation.findFirstOrThrow({
    where: { customerId: t.customer.id, contactPhoneNumber: contact },
    include: { sender: true },
  });
  return { ...t, contact, conversation, owner: memberPrincipal(t.customer.id, { email: "owner@example.test" }) };
}

const labelEvents = (customerId: string) =>
  db.webhookEvent.findMany({
    where: { customerId, type: "conversation.labels_changed" },
    orderBy: { createdAt: "asc" },
  });

describe("labels of an account", () => {
  it("have unique names whatever the case, are listed by name, renamed and deleted", async () => {
    const t = await createTestCustomer();
    const p = operatorPrincipal(t.customer.id);
    const vip = await createLabel(p, { name: "VIP", color: "purple", description: "Pays a lot" });
    await createLabel(p, { name: "billing", color: "blue", description: "" });
    await expect(createLabel(p, { name: "vip", color: "red", description: "" })).rejects.toMatchObject({
      code: "LABEL_EXISTS",
      details: { name: "vip" },
    });
    expect((await listLabels(p)).map((l) => l.name)).toEqual(["billing", "VIP"]);
    await expect(updateLabel(p, vip.id, { name: "Billing" })).rejects.toMatchObject({ code: "LABEL_EXISTS" });
    const renamed = await updateLabel(p, vip.id, { name: "gold", color: "yellow" });
    expect(renamed).toMatchObject({ id: vip.id, name: "gold", color: "yellow", description: "Pays a lot" });
    await deleteLabel(p, vip.id);
    await expect(getLabel(p, vip.id)).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
    await expect(deleteLabel(p, vip.id)).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
  });

  it("are another account's to see and change only", async () => {
    const a = await createTestCustomer();
    const b = await createTestCustomer();
    const label = await createLabel(operatorPrincipal(a.customer.id), { name: "vip", color: "gray", description: "" });
    const pb = operatorPrincipal(b.customer.id);
    // The same name is free in another account.
    await createLabel(pb, { name: "VIP", color: "gray", description: "" });
    await expect(getLabel(pb, label.id)).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
    await expect(updateLabel(pb, label.id, { color: "red" })).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
    await expect(deleteLabel(pb, label.id)).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
    expect((await getLabel(operatorPrincipal(a.customer.id), label.id)).color).toBe("gray");
  });

  it("are managed with the inbox settings permission and read with the inbox or the contacts", async () => {
    const t = await createTestCustomer();
    const agent = memberPrincipal(t.customer.id, { role: "agent" });
    const developer = memberPrincipal(t.customer.id, { role: "developer" });
    const billing = memberPrincipal(t.customer.id, { role: "billing" });
    await expect(createLabel(agent, { name: "x", color: "gray", description: "" })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    await createLabel(memberPrincipal(t.customer.id, { role: "admin" }), { name: "x", color: "gray", description: "" });
    expect(await listLabels(agent)).toHaveLength(1);
    expect(await listLabels(developer)).toHaveLength(1);
    await expect(listLabels(billing)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });
});

describe("a conversation's labels", () => {
  it("report what actually changed and emit conversation.labels_changed only then", async () => {
    const t = await withConversation();
    const p = t.owner;
    for (const name of ["refund", "VIP", "new"]) await createLabel(p, { name, color: "gray", description: "" });
    const uid = t.conversation.id;
    const first = await changeConversationLabels(p, undefined, uid, { add: ["vip", "Refund", "new"], remove: [] });
    expect(first).toEqual({
      conversationUid: uid,
      labels: ["new", "refund", "VIP"],
      added: ["new", "refund", "VIP"],
      removed: [],
    });
    // Adding what it carries and removing what it does not changes nothing: no event.
    const again = await changeConversationLabels(p, undefined, uid, { add: ["VIP"], remove: [] });
    expect(again).toMatchObject({ added: [], removed: [] });
    const second = await changeConversationLabels(p, undefined, uid, { add: [], remove: ["NEW", "new"] });
    expect(second).toMatchObject({ labels: ["refund", "VIP"], added: [], removed: ["new"] });
    const events = await labelEvents(t.customer.id);
    expect(events).toHaveLength(2);
    expect(events.map((e) => (e.payload as { data: unknown }).data)).toEqual([
      {
        conversationUid: uid,
        contactPhoneNumber: t.contact,
        contactName: expect.anything(),
        added: ["new", "refund", "VIP"],
        removed: [],
        labels: ["new", "refund", "VIP"],
        by: "owner@example.test",
      },
      expect.objectContaining({ added: [], removed: ["new"], labels: ["refund", "VIP"] }),
    ]);
    expect(events[0]?.senderId).toBe(t.sender.id);
    expect(await conversationLabels(db, t.customer.id, uid)).toEqual(["refund", "VIP"]);
  });

  it("refuses unknown names naming them, writing nothing", async () => {
    const t = await withConversation();
    await createLabel(t.owner, { name: "refund", color: "gray", description: "" });
    await expect(
      changeConversationLabels(t.owner, undefined, t.conversation.id, { add: ["refund", "nope", "Other"], remove: [] }),
    ).rejects.toMatchObject({ code: "LABEL_NOT_FOUND", details: { names: ["nope", "Other"] } });
    expect(await conversationLabels(db, t.customer.id, t.conversation.id)).toEqual([]);
    expect(await labelEvents(t.customer.id)).toHaveLength(0);
  });

  it("two concurrent adds of one label report it once", async () => {
    const t = await withConversation();
    await createLabel(t.owner, { name: "vip", color: "gray", description: "" });
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        changeConversationLabels(t.owner, undefined, t.conversation.id, { add: ["vip"], remove: [] }),
      ),
    );
    expect(results.flatMap((r) => r.added)).toEqual(["vip"]);
    expect(await labelEvents(t.customer.id)).toHaveLength(1);
  });

  it("are changed inside a caller's transaction with its own `by` (automation rules)", async () => {
    const t = await withConversation();
    await createLabel(t.owner, { name: "refund", color: "gray", description: "" });
    const c = t.conversation;
    const result = await db.$transaction((tx) =>
      changeConversationLabelsIn(tx, c, { add: ["refund"], remove: [] }, "automation: Refunds"),
    );
    expect(result).toEqual({ labels: ["refund"], added: ["refund"], removed: [], emitted: true });
    const [event] = await labelEvents(t.customer.id);
    expect(event?.payload).toMatchObject({ data: { by: "automation: Refunds" } });
  });

  it("are out of reach of another account, an agent without the sender, and a role without the inbox", async () => {
    const t = await withConversation();
    const other = await createTestCustomer();
    await createLabel(operatorPrincipal(other.customer.id), { name: "vip", color: "gray", description: "" });
    await expect(
      changeConversationLabels(operatorPrincipal(other.customer.id), undefined, t.conversation.id, {
        add: ["vip"],
        remove: [],
      }),
    ).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
    const limited = memberPrincipal(t.customer.id, { role: "agent", senderIds: [t.otherSender.id] });
    await expect(
      changeConversationLabels(limited, undefined, t.conversation.id, { add: ["vip"], remove: [] }),
    ).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });
    const developer = memberPrincipal(t.customer.id, { role: "developer" });
    await expect(
      changeConversationLabels(developer, undefined, t.conversation.id, { add: ["vip"], remove: [] }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    // Another account's label of the same name is not this account's.
    await expect(
      changeConversationLabels(t.owner, undefined, t.conversation.id, { add: ["vip"], remove: [] }),
    ).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
  });
});

describe("a contact's labels", () => {
  it("are kept per phone number across books and conversations; a number never seen is CONTACT_NOT_FOUND", async () => {
    const t = await withConversation();
    const p = systemPrincipal(t.customer.id);
    await createLabel(t.owner, { name: "vip", color: "gray", description: "" });
    await createLabel(t.owner, { name: "lead", color: "gray", description: "" });
    // Known from a conversation only.
    expect(await changeContactLabels(p, t.contact, { add: ["VIP"], remove: [] })).toEqual({
      phoneNumber: t.contact,
      labels: ["vip"],
      added: ["vip"],
      removed: [],
    });
    // Known from two books: one set of labels.
    const inBooks = uniquePhone();
    for (const name of ["A", "B"]) {
      const book = await db.contactBook.create({ data: { customerId: t.customer.id, name } });
      await db.contact.create({ data: { customerId: t.customer.id, contactBookId: book.id, phoneNumber: inBooks } });
    }
    await changeContactLabels(p, inBooks, { add: ["lead", "vip"], remove: [] });
    expect(await changeContactLabels(p, inBooks, { add: [], remove: ["vip"] })).toMatchObject({
      labels: ["lead"],
      removed: ["vip"],
    });
    expect(await readContactLabels(p, inBooks)).toEqual(["lead"]);
    const never = uniquePhone();
    await expect(changeContactLabels(p, never, { add: ["vip"], remove: [] })).rejects.toMatchObject({
      code: "CONTACT_NOT_FOUND",
    });
    await expect(readContactLabels(p, never)).rejects.toMatchObject({ code: "CONTACT_NOT_FOUND" });
    // Another account does not know these numbers.
    const other = await createTestCustomer();
    await expect(readContactLabels(operatorPrincipal(other.customer.id), inBooks)).rejects.toMatchObject({
      code: "CONTACT_NOT_FOUND",
    });
    expect(await contactLabels(db, t.customer.id, t.contact)).toEqual(["vip"]);
    // Changing a contact's labels needs contacts.write.
    await expect(
      changeContactLabels(memberPrincipal(t.customer.id, { role: "agent" }), inBooks, { add: ["vip"], remove: [] }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });
});

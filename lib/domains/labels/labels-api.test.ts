// The labels API (docs/automation.md "Labels"): /labels, /conversations/{uid}/labels,
// /contacts/{phoneNumber}/labels, `labels` on conversation and contact objects, the `label`
// filter of the lists, conversation.labels_changed, and every route scoped to its account.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

type Customer = Awaited<ReturnType<typeof createTestCustomer>>;
let a: Customer;
let b: Customer;

const label = (t: Customer, name: string, color?: string) =>
  call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name, ...(color ? { color } : {}) } } });

async function conversationOf(t: Customer, text = "Hello") {
  const contact = uniquePhone();
  await contactWrites(t.sender, contact, text);
  const c = await db.conversation.findFirstOrThrow({
    where: { customerId: t.customer.id, contactPhoneNumber: contact },
    select: { id: true },
  });
  return { contact, uid: c.id };
}

beforeAll(async () => {
  a = await createTestCustomer();
  b = await createTestCustomer();
});

describe("labels", () => {
  it("create, list by name, read, rename and recolour, delete; names unique whatever the case; v2 and v3", async () => {
    const created = await label(a, "VIP", "purple");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ name: "VIP", color: "purple", description: "" });
    const uid = created.body.data.labelUid as string;
    expect(uid).toMatch(/^lbl_/);
    const taken = await label(a, "vip");
    expect(taken.status).toBe(409);
    expect(taken.body.error_code).toBe("LABEL_EXISTS");
    expect((await label(a, "billing")).status).toBe(201);

    const list = await call("GET", "/api/v2/labels", { token: a.globalToken });
    expect(list.body.data.labels.map((l: { name: string }) => l.name)).toEqual(["billing", "VIP"]);
    expect((await call("GET", `/api/v3/labels/${uid}`, { token: a.globalToken })).body.data).toEqual(created.body.data);

    const renamed = await call("POST", `/api/v3/labels/${uid}`, {
      token: a.globalToken,
      body: { label: { name: "Gold", color: "yellow" } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ labelUid: uid, name: "Gold", color: "yellow" });
    const clash = await call("POST", `/api/v3/labels/${uid}`, {
      token: a.globalToken,
      body: { label: { name: "BILLING" } },
    });
    expect(clash.body.error_code).toBe("LABEL_EXISTS");
    const empty = await call("POST", `/api/v3/labels/${uid}`, { token: a.globalToken, body: { label: {} } });
    expect(empty.status).toBe(400);
    const badColour = await label(a, "x", "mauve");
    expect(badColour.status).toBe(400);
    expect(JSON.stringify(badColour.body.details)).toContain("body.label.color");

    const deleted = await call("DELETE", `/api/v3/labels/${uid}`, { token: a.globalToken });
    expect(deleted.body.data).toEqual({ labelUid: uid, deleted: true });
    const gone = await call("GET", `/api/v3/labels/${uid}`, { token: a.globalToken });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("LABEL_NOT_FOUND");
    expect((await call("GET", "/api/v3/labels/nope", { token: a.globalToken })).body.error_code).toBe(
      "LABEL_NOT_FOUND",
    );
  });

  it("on a conversation: add/remove report what changed, the object carries them, the list filters, the event is emitted", async () => {
    await label(a, "refund");
    await label(a, "urgent");
    const one = await conversationOf(a, "refund please");
    const two = await conversationOf(a);
    const path = `/api/v3/conversations/${one.uid}/labels`;

    const added = await call("POST", path, { token: a.globalToken, body: { add: ["REFUND", "urgent"] } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toEqual({
      conversationUid: one.uid,
      labels: ["refund", "urgent"],
      added: ["refund", "urgent"],
      removed: [],
    });
    const again = await call("POST", path, { token: a.scopedToken, body: { add: ["refund"], remove: ["urgent"] } });
    expect(again.body.data).toMatchObject({ labels: ["refund"], added: [], removed: ["urgent"] });

    const unknown = await call("POST", path, { token: a.globalToken, body: { add: ["refund", "nope", "Nah"] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("LABEL_NOT_FOUND");
    expect(unknown.body.details).toMatchObject({ names: ["nope", "Nah"] });
    expect((await call("POST", path, { token: a.globalToken, body: { add: [] } })).status).toBe(400);

    const read = await call("GET", `/api/v3/conversations/${one.uid}`, { token: a.globalToken });
    expect(read.body.data.labels).toEqual(["refund"]);
    const other = await call("GET", `/api/v3/conversations/${two.uid}`, { token: a.globalToken });
    expect(other.body.data.labels).toEqual([]);

    const filtered = await call("GET", "/api/v3/conversations?label=Refund", { token: a.globalToken });
    expect(filtered.body.data.conversations.map((c: { uid: string }) => c.uid)).toEqual([one.uid]);
    const none = await call("GET", "/api/v3/conversations?label=nothing", { token: a.globalToken });
    expect(none.body.data.conversations).toEqual([]);

    const events = await db.webhookEvent.findMany({
      where: { customerId: a.customer.id, type: "conversation.labels_changed" },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => (e.payload as { data: unknown }).data)).toMatchObject([
      { conversationUid: one.uid, added: ["refund", "urgent"], removed: [], by: "global" },
      { conversationUid: one.uid, added: [], removed: ["urgent"], by: "scoped" },
    ]);
  });

  it("on a contact: by phone number across books and conversations; CONTACT_NOT_FOUND for a number never seen", async () => {
    await label(a, "Lead");
    const { contact } = await conversationOf(a);
    const path = `/api/v3/contacts/${encodeURIComponent(contact)}/labels`;
    const changed = await call("POST", path, { token: a.globalToken, body: { add: ["lead"] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toEqual({ phoneNumber: contact, labels: ["Lead"], added: ["Lead"], removed: [] });
    expect((await call("GET", path, { token: a.globalToken })).body.data).toEqual({
      phoneNumber: contact,
      labels: ["Lead"],
    });

    // The same number in a book carries the label; the book's list filters by it.
    const book = await call("POST", "/api/v3/contact-books", {
      token: a.globalToken,
      body: { contactBook: { name: "Leads" } },
    });
    const bookUid = book.body.data.contactBookUid as string;
    const plain = uniquePhone();
    await call("POST", `/api/v3/contact-books/${bookUid}/contacts/bulk`, {
      token: a.globalToken,
      body: { contacts: [{ phoneNumber: contact, name: "Ada" }, { phoneNumber: plain }] },
    });
    const listed = await call("GET", `/api/v3/contact-books/${bookUid}/contacts`, { token: a.globalToken });
    const byPhone = Object.fromEntries(
      listed.body.data.contacts.map((c: { phoneNumber: string; labels: string[] }) => [c.phoneNumber, c.labels]),
    );
    expect(byPhone).toEqual({ [contact]: ["Lead"], [plain]: [] });
    const filtered = await call("GET", `/api/v3/contact-books/${bookUid}/contacts?label=LEAD`, {
      token: a.globalToken,
    });
    expect(filtered.body.data.contacts.map((c: { phoneNumber: string }) => c.phoneNumber)).toEqual([contact]);
    expect(filtered.body.data.pagination).toMatchObject({ total: 1 });

    const never = `/api/v3/contacts/${encodeURIComponent(uniquePhone())}/labels`;
    for (const res of [
      await call("GET", never, { token: a.globalToken }),
      await call("POST", never, { token: a.globalToken, body: { add: ["lead"] } }),
      await call("GET", "/api/v3/contacts/not-a-number/labels", { token: a.globalToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe("CONTACT_NOT_FOUND");
    }
  });

  it("a book's label filter pages 40,000 labelled contacts with a search, reading only the page", async () => {
    const c = await createTestCustomer();
    const made = await label(c, "Bulk");
    const labelUid = made.body.data.labelUid as string;
    const book = await call("POST", "/api/v3/contact-books", {
      token: c.globalToken,
      body: { contactBook: { name: "Many" } },
    });
    const bookUid = book.body.data.contactBookUid as string;
    // Beyond PostgreSQL's 32,767 bind parameters: a filter that sent the matching ids back failed here.
    await db.$executeRaw`INSERT INTO "Contact" ("id", "customerId", "contactBookId", "phoneNumber", "name", "createdAt", "updatedAt")
      SELECT 'bulk_' || n, ${c.customer.id}, ${bookUid}, '+4915' || lpad(n::text, 9, '0'),
             CASE WHEN n % 1000 = 0 THEN 'Zoë ' || n ELSE 'Contact ' || n END,
             timestamp '2026-01-01' + n * interval '1 second', now()
        FROM generate_series(1, 40000) n`;
    await db.$executeRaw`INSERT INTO "ContactLabel" ("customerId", "phoneNumber", "labelId")
      SELECT ${c.customer.id}, '+4915' || lpad(n::text, 9, '0'), ${labelUid} FROM generate_series(1, 40000) n`;
    const base = `/api/v3/contact-books/${bookUid}/contacts`;
    const page = await call("GET", `${base}?label=bulk&limit=5&page=2`, { token: c.globalToken });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.pagination).toMatchObject({ total: 40000, page: 2 });
    // Newest first, then by id: the second page of five holds contacts 39995 down to 39991.
    expect(page.body.data.contacts.map((x: { name: string }) => x.name)).toEqual(
      [39995, 39994, 39993, 39992, 39991].map((n) => `Contact ${n}`),
    );
    expect(page.body.data.contacts[0].labels).toEqual(["Bulk"]);
    // The search folds accents as without the filter: "zoe" finds the forty named Zoë.
    const found = await call("GET", `${base}?label=BULK&search=zoe&limit=3`, { token: c.globalToken });
    expect(found.body.data.pagination).toMatchObject({ total: 40 });
    expect(found.body.data.contacts.map((x: { name: string }) => x.name)).toEqual([
      "Zoë 40000",
      "Zoë 39000",
      "Zoë 38000",
    ]);
    // And by the number's digits.
    const byDigits = await call("GET", `${base}?label=bulk&search=${encodeURIComponent("+49 15 000 012 345")}`, {
      token: c.globalToken,
    });
    expect(byDigits.body.data.contacts.map((x: { name: string }) => x.name)).toEqual(["Contact 12345"]);
  }, 120_000);

  it("every route is the account's own", async () => {
    const mine = await label(a, "mine");
    const uid = mine.body.data.labelUid as string;
    const conv = await conversationOf(a);
    await call("POST", `/api/v3/conversations/${conv.uid}/labels`, { token: a.globalToken, body: { add: ["mine"] } });
    await call("POST", `/api/v3/contacts/${encodeURIComponent(conv.contact)}/labels`, {
      token: a.globalToken,
      body: { add: ["mine"] },
    });

    for (const [method, path, body] of [
      ["GET", `/api/v3/labels/${uid}`, undefined],
      ["POST", `/api/v3/labels/${uid}`, { label: { name: "theirs" } }],
      ["DELETE", `/api/v3/labels/${uid}`, undefined],
    ] as const) {
      const res = await call(method, path, { token: b.globalToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error_code).toBe("LABEL_NOT_FOUND");
    }
    expect((await call("GET", "/api/v3/labels", { token: b.globalToken })).body.data.labels).toEqual([]);

    const convPath = `/api/v3/conversations/${conv.uid}/labels`;
    const theirConv = await call("POST", convPath, { token: b.globalToken, body: { remove: ["mine"] } });
    expect(theirConv.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    // A number-scoped token of the same account does not reach another sender's conversation.
    const elsewhere = uniquePhone();
    await contactWrites(a.otherSender, elsewhere);
    const otherConv = await db.conversation.findFirstOrThrow({
      where: { customerId: a.customer.id, contactPhoneNumber: elsewhere },
    });
    const scoped = await call("POST", `/api/v3/conversations/${otherConv.id}/labels`, {
      token: a.scopedToken,
      body: { add: ["mine"] },
    });
    expect(scoped.body.error_code).toBe("CONVERSATION_NOT_FOUND");
    expect((await call("GET", "/api/v3/labels", { token: a.scopedToken })).body.error_code).toBe(
      "TOKEN_SCOPE_NOT_ALLOWED",
    );

    const contactPath = `/api/v3/contacts/${encodeURIComponent(conv.contact)}/labels`;
    for (const res of [
      await call("GET", contactPath, { token: b.globalToken }),
      await call("POST", contactPath, { token: b.globalToken, body: { remove: ["mine"] } }),
    ]) {
      expect(res.body.error_code).toBe("CONTACT_NOT_FOUND");
    }
    // b's own conversation cannot be given a's label, and b's lists do not see a's labels.
    const theirs = await conversationOf(b);
    const borrowed = await call("POST", `/api/v3/conversations/${theirs.uid}/labels`, {
      token: b.globalToken,
      body: { add: ["mine"] },
    });
    expect(borrowed.body.error_code).toBe("LABEL_NOT_FOUND");
    expect(
      (await call("GET", "/api/v3/conversations?label=mine", { token: b.globalToken })).body.data.conversations,
    ).toEqual([]);

    // Nothing of a's changed.
    expect((await call("GET", `/api/v3/labels/${uid}`, { token: a.globalToken })).body.data.name).toBe("mine");
    expect((await call("GET", `/api/v3/conversations/${conv.uid}`, { token: a.globalToken })).body.data.labels).toEqual(
      ["mine"],
    );
    expect((await call("GET", contactPath, { token: a.globalToken })).body.data.labels).toEqual(["mine"]);
  });
});

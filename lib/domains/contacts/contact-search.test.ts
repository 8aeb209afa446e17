// Contact search whatever the case and accents (docs/api/contact-books.md "Search"): in one
// book through the real router (the API's search and the dashboard's book page share it), and
// across every book of the account (the contacts page), each contact with its book. The folded
// text is kept by the database for every writer: the bulk upload's INSERT ... ON CONFLICT, its
// update of an existing contact, and Prisma.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { searchAllContacts } from "./contacts";
import { ContactSearchQuery } from "./schemas";

let me: TestCustomer;
let other: TestCustomer;
let principal: Principal;
let paris: string;
let lyon: string;
const tag = `t${Date.now().toString(36)}`;

async function newBook(c: TestCustomer, name: string): Promise<string> {
  const res = await call("POST", "/api/v3/contact-books", { token: c.globalToken, body: { contactBook: { name } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.uid;
}

async function upload(c: TestCustomer, book: string, contacts: unknown[]) {
  const res = await call("POST", `/api/v3/contact-books/${book}/contacts/bulk`, {
    token: c.globalToken,
    body: { contacts },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.failed, JSON.stringify(res.body.data.errors)).toBe(0);
}

async function searchBook(book: string, term: string): Promise<string[]> {
  const res = await call("GET", `/api/v3/contact-books/${book}/contacts`, {
    token: me.globalToken,
    query: { search: term },
  });
  expect(res.status).toBe(200);
  return (res.body.data.contacts as { name: string }[]).map((c) => c.name).sort();
}

async function searchEverywhere(term: string): Promise<string[]> {
  const { contacts } = await searchAllContacts(principal, ContactSearchQuery.parse({ search: term }));
  return contacts.map((c) => `${c.name} (${c.contactBook.name})`).sort();
}

beforeAll(async () => {
  [me, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  principal = memberPrincipal(me.customer.id);
  paris = await newBook(me, `Paris ${tag}`);
  lyon = await newBook(me, `Lyon ${tag}`);
  await upload(me, paris, [
    { phoneNumber: "+33612340001", name: "Chloé Martin", email: "chloe.martin@example.fr" },
    { phoneNumber: "+33612340002", name: "Zoë Ørsted", email: "zoe@example.dk" },
    { phoneNumber: "+33612340003", name: "Renée 100% Fleury", email: null },
  ]);
  await upload(me, lyon, [
    { phoneNumber: "+33612340011", name: "CHLOÉ DUBOIS", email: "c.dubois@example.fr" },
    { phoneNumber: "+33612340012", name: "Élodie Bernard", email: "eb@example.fr" },
  ]);
  const theirs = await newBook(other, `Paris ${tag}`);
  await upload(other, theirs, [{ phoneNumber: "+33612340021", name: "Chloé Autre", email: null }]);
});

describe("search in one book", () => {
  it("finds a name whatever its accents and case", async () => {
    for (const term of ["Chloe", "chloe", "CHLOÉ", "chloé", "  chlo  "]) {
      expect(await searchBook(paris, term), term).toEqual(["Chloé Martin"]);
    }
    expect(await searchBook(lyon, "chloe")).toEqual(["CHLOÉ DUBOIS"]);
    expect(await searchBook(paris, "zoe orsted")).toEqual(["Zoë Ørsted"]);
    expect(await searchBook(paris, "renee")).toEqual(["Renée 100% Fleury"]);
  });

  it("finds an email whatever its case, a number by its digits, and % literally", async () => {
    expect(await searchBook(lyon, "ELODIE")).toEqual(["Élodie Bernard"]);
    expect(await searchBook(paris, "MARTIN@EXAMPLE")).toEqual(["Chloé Martin"]);
    expect(await searchBook(paris, "+33 6 1234 0002")).toEqual(["Zoë Ørsted"]);
    expect(await searchBook(paris, "100%")).toEqual(["Renée 100% Fleury"]);
    expect(await searchBook(paris, "0%")).toEqual(["Renée 100% Fleury"]);
    expect(await searchBook(paris, "%")).toEqual(["Renée 100% Fleury"]);
    expect(await searchBook(paris, "dubois")).toEqual([]);
  });

  it("follows a contact's new name (an upload updating it) and a write through Prisma", async () => {
    await upload(me, paris, [{ phoneNumber: "+33612340001", name: "Chloë Marten" }]);
    expect(await searchBook(paris, "chloe marten")).toEqual(["Chloë Marten"]);
    expect(await searchBook(paris, "chloe martin")).toEqual([]);
    // A value written to the folded column itself is replaced by the database's.
    const row = await db.contact.findFirstOrThrow({ where: { contactBookId: paris, phoneNumber: "+33612340001" } });
    expect(row.searchText).toBe("chloe marten\nchloe.martin@example.fr");
    await db.contact.update({ where: { id: row.id }, data: { name: "Chloé Martin", searchText: "nonsense" } });
    expect((await db.contact.findUniqueOrThrow({ where: { id: row.id } })).searchText).toBe(
      "chloe martin\nchloe.martin@example.fr",
    );
    expect(await searchBook(paris, "Chloe Martin")).toEqual(["Chloé Martin"]);
  });
});

describe("search across every book", () => {
  it("finds the account's contacts in every book, each with its book, and never another account's", async () => {
    expect(await searchEverywhere("chloe")).toEqual([`CHLOÉ DUBOIS (Lyon ${tag})`, `Chloé Martin (Paris ${tag})`]);
    expect(await searchEverywhere("Chloé")).toEqual(await searchEverywhere("chloe"));
    expect(await searchEverywhere("example.fr")).toEqual([
      `CHLOÉ DUBOIS (Lyon ${tag})`,
      `Chloé Martin (Paris ${tag})`,
      `Élodie Bernard (Lyon ${tag})`,
    ]);
    expect(await searchEverywhere("autre")).toEqual([]);
  });

  it("pages with a total", async () => {
    const first = await searchAllContacts(principal, ContactSearchQuery.parse({ search: "example", limit: "2" }));
    expect(first.pagination).toMatchObject({ page: 1, limit: 2, total: 4, totalPages: 2, hasMore: true });
    const second = await searchAllContacts(
      principal,
      ContactSearchQuery.parse({ search: "example", limit: "2", page: "2" }),
    );
    expect(second.contacts.map((c) => c.id)).not.toContain(first.contacts[0]?.id);
    expect(second.pagination).toMatchObject({ page: 2, count: 2, hasMore: false });
  });

  it("needs a term", () => {
    expect(ContactSearchQuery.safeParse({ search: "  " }).success).toBe(false);
  });
});

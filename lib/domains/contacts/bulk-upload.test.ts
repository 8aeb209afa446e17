// Bulk upload, contacts listing and custom fields through the real router.
import { beforeAll, describe, expect, it } from "vitest";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

let me: TestCustomer;
const tag = `t${Date.now().toString(36)}`;

async function newBook(name: string): Promise<string> {
  const res = await call("POST", "/api/v3/contact-books", { token: me.globalToken, body: { contactBook: { name } } });
  expect(res.status).toBe(201);
  return res.body.data.uid;
}

async function createField(key: string, type: string) {
  return call("POST", "/api/v3/contact-fields", { token: me.globalToken, body: { field: { key, label: key, type } } });
}

async function upload(bookUid: string, contacts: unknown) {
  return call("POST", `/api/v3/contact-books/${bookUid}/contacts/bulk`, { token: me.globalToken, body: { contacts } });
}

async function allContacts(bookUid: string) {
  const res = await call("GET", `/api/v3/contact-books/${bookUid}/contacts`, {
    token: me.globalToken,
    query: { limit: 100 },
  });
  expect(res.status).toBe(200);
  return res.body.data.contacts as {
    phoneNumber: string;
    name: string | null;
    email: string | null;
    customFields: Record<string, unknown>;
  }[];
}

beforeAll(async () => {
  me = await createTestCustomer();
  for (const [key, type] of [
    ["city", "text"],
    ["age", "number"],
    ["vip", "boolean"],
    ["birthday", "date"],
  ]) {
    expect((await createField(key, type)).status).toBe(201);
  }
});

describe("contact fields", () => {
  it("lists the customer's definitions and refuses a duplicate or malformed key", async () => {
    const list = await call("GET", "/api/v3/contact-fields", { token: me.globalToken });
    expect(list.status).toBe(200);
    expect(list.body.data.fields.map((f: { key: string; type: string }) => `${f.key}:${f.type}`)).toEqual([
      "city:text",
      "age:number",
      "vip:boolean",
      "birthday:date",
    ]);
    expect(list.body.data.items).toEqual(list.body.data.fields);

    const dup = await createField("city", "number");
    expect(dup.status).toBe(400);
    expect(dup.body.error_code).toBe("VALIDATION_FAILED");
    expect(dup.body.message).toContain("city");

    for (const key of ["City", "first-name", "1st", "", "email"]) {
      const res = await createField(key, "text");
      expect(res.status, key).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
    }
    expect((await createField("tier", "enum")).status).toBe(400);
  });

  it("keeps definitions per customer", async () => {
    const other = await createTestCustomer();
    const list = await call("GET", "/api/v3/contact-fields", { token: other.globalToken });
    expect(list.body.data.fields).toEqual([]);
    expect(
      (
        await call("POST", "/api/v3/contact-fields", {
          token: other.globalToken,
          body: { field: { key: "city", label: "City", type: "text" } },
        })
      ).status,
    ).toBe(201);
  });
});

describe("bulk upload", () => {
  it("stores the good rows and reports each bad row", async () => {
    const book = await newBook(`Mixed ${tag}`);
    const res = await upload(book, [
      {
        phoneNumber: "+1 (415) 555-0101",
        name: "Ada",
        email: "ada@example.com",
        customFields: { city: "Paris", age: 36 },
      },
      { phoneNumber: "not a phone", name: "Bad phone" },
      { phoneNumber: "+14155550102", customFields: { shoe_size: 42 } },
      { phoneNumber: "+14155550103", customFields: { age: "old" } },
      { phoneNumber: "+14155550104", email: "nope@" },
      { phoneNumber: "+1 415 555 0105", customFields: { vip: "true", birthday: "1990-02-28", age: "41" } },
      { phoneNumber: "+14155550106", customFields: { birthday: "1990-02-30" } },
      { phoneNumber: "+14155550107", customFields: { vip: "maybe" } },
      "just a string",
      { name: "No phone" },
      { phoneNumber: "+14155550101", name: "Ada again" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: 11, created: 2, updated: 0, failed: 9 });
    expect(res.body.data.errors.map((e: { index: number; error_code: string }) => [e.index, e.error_code])).toEqual([
      [1, "INVALID_PHONE_NUMBER"],
      [2, "UNKNOWN_CUSTOM_FIELD"],
      [3, "INVALID_CUSTOM_FIELD_VALUE"],
      [4, "INVALID_EMAIL"],
      [6, "INVALID_CUSTOM_FIELD_VALUE"],
      [7, "INVALID_CUSTOM_FIELD_VALUE"],
      [8, "INVALID_ROW"],
      [9, "INVALID_PHONE_NUMBER"],
      [10, "DUPLICATE_PHONE_NUMBER"],
    ]);
    for (const e of res.body.data.errors) expect(Object.keys(e).sort()).toEqual(["error_code", "index", "message"]);
    expect(res.body.data.errors[1].message).toContain("shoe_size");

    const stored = await allContacts(book);
    expect(stored.map((c) => c.phoneNumber).sort()).toEqual(["+14155550101", "+14155550105"]);
    const ada = stored.find((c) => c.phoneNumber === "+14155550101");
    expect(ada).toMatchObject({ name: "Ada", email: "ada@example.com", customFields: { city: "Paris", age: 36 } });
    const typed = stored.find((c) => c.phoneNumber === "+14155550105");
    expect(typed?.customFields).toEqual({ vip: true, birthday: "1990-02-28", age: 41 });

    const read = await call("GET", `/api/v3/contact-books/${book}`, { token: me.globalToken });
    expect(read.body.data.contactCount).toBe(2);
  });

  it("updates on re-upload instead of duplicating, keeping what a row leaves out", async () => {
    const book = await newBook(`Reupload ${tag}`);
    const first = await upload(book, [
      { phoneNumber: "+14155550201", name: "Grace", email: "grace@example.com", customFields: { city: "Oslo" } },
      { phoneNumber: "+14155550202", name: "Linus" },
    ]);
    expect(first.body.data).toEqual({ received: 2, created: 2, updated: 0, failed: 0, errors: [] });

    const second = await upload(book, [
      { phoneNumber: "+1 415 555 0201", customFields: { age: 30 } },
      { phoneNumber: "+14155550202", name: "Linus T", email: "" },
      { phoneNumber: "+14155550203", name: "New" },
    ]);
    expect(second.body.data).toEqual({ received: 3, created: 1, updated: 2, failed: 0, errors: [] });

    const stored = await allContacts(book);
    expect(stored).toHaveLength(3);
    // Timestamps written by the upload statement are UTC like Prisma's own.
    for (const c of stored as unknown as { createdAt: string; updatedAt: string }[]) {
      expect(Math.abs(new Date(c.createdAt).getTime() - Date.now())).toBeLessThan(60_000);
      expect(new Date(c.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(c.createdAt).getTime());
    }
    expect(stored.find((c) => c.phoneNumber === "+14155550201")).toMatchObject({
      name: "Grace",
      email: "grace@example.com",
      customFields: { city: "Oslo", age: 30 },
    });
    expect(stored.find((c) => c.phoneNumber === "+14155550202")?.name).toBe("Linus T");
    const read = await call("GET", `/api/v3/contact-books/${book}`, { token: me.globalToken });
    expect(read.body.data.contactCount).toBe(3);
  });

  it("keeps the same number in two books apart and counts each book", async () => {
    const a = await newBook(`Book A ${tag}`);
    const b = await newBook(`Book B ${tag}`);
    expect((await upload(a, [{ phoneNumber: "+14155550301" }])).body.data.created).toBe(1);
    expect(
      (await upload(b, [{ phoneNumber: "+14155550301" }, { phoneNumber: "+14155550302" }])).body.data.created,
    ).toBe(2);
    const list = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { search: tag } });
    const counts = Object.fromEntries(
      list.body.data.contactBooks.map((x: { name: string; contactCount: number }) => [x.name, x.contactCount]),
    );
    expect(counts[`Book A ${tag}`]).toBe(1);
    expect(counts[`Book B ${tag}`]).toBe(2);
  });

  it("accepts a bare JSON array body", async () => {
    const book = await newBook(`Array ${tag}`);
    const res = await call("POST", `/api/v3/contact-books/${book}/contacts/bulk`, {
      token: me.globalToken,
      body: [{ phoneNumber: "+14155550401" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(1);
  });

  it("refuses more than 5,000 rows, and an empty or missing list", async () => {
    const book = await newBook(`Too many ${tag}`);
    const rows = Array.from({ length: 5_001 }, (_, i) => ({ phoneNumber: `+1415${String(1_000_000 + i)}` }));
    const res = await upload(book, rows);
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain("5,000");
    expect((await upload(book, [])).status).toBe(400);
    const missing = await call("POST", `/api/v3/contact-books/${book}/contacts/bulk`, {
      token: me.globalToken,
      body: {},
    });
    expect(missing.body.error_code).toBe("VALIDATION_FAILED");
    const read = await call("GET", `/api/v3/contact-books/${book}`, { token: me.globalToken });
    expect(read.body.data.contactCount).toBe(0);
  });

  it("accepts a 5,000-row upload larger than the default 1 MiB body limit", async () => {
    const book = await newBook(`Wide ${tag}`);
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      phoneNumber: `+4421${String(70_000_000 + i)}`,
      name: `${"Maximiliana Alexandrina ".repeat(6)}${i}`,
      email: `maximiliana.alexandrina.${i}@a-rather-long-company-name.example.co.uk`,
      customFields: { city: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch" },
    }));
    expect(JSON.stringify({ contacts: rows }).length).toBeGreaterThan(1_048_576);
    // The larger limit needs a bearer header: the body is read before authentication.
    const inBody = await call("POST", `/api/v3/contact-books/${book}/contacts/bulk`, {
      body: { authToken: me.globalToken, contacts: rows },
    });
    expect(inBody.status).toBe(413);
    const res = await upload(book, rows);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: 5_000, failed: 0 });
  }, 60_000);

  it("uploads 5,000 rows in a few seconds", async () => {
    const book = await newBook(`Big ${tag}`);
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      phoneNumber: `+4420${String(70_000_000 + i)}`,
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      customFields: { city: "London", age: 20 + (i % 50), vip: i % 2 === 0 },
    }));
    const started = performance.now();
    const res = await upload(book, rows);
    const firstMs = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ received: 5_000, created: 5_000, updated: 0, failed: 0, errors: [] });

    const again = performance.now();
    const second = await upload(book, rows);
    const secondMs = performance.now() - again;
    expect(second.body.data).toMatchObject({ created: 0, updated: 5_000, failed: 0 });
    console.log(
      `[bench] bulk upload 5,000 rows: insert ${firstMs.toFixed(0)} ms, re-upload (update) ${secondMs.toFixed(0)} ms`,
    );
    const read = await call("GET", `/api/v3/contact-books/${book}`, { token: me.globalToken });
    expect(read.body.data.contactCount).toBe(5_000);
  }, 60_000);
});

describe("contacts listing", () => {
  it("searches phone, name and email and paginates", async () => {
    const book = await newBook(`Search ${tag}`);
    await upload(book, [
      { phoneNumber: "+14155550501", name: "Marie Curie", email: "marie@radium.org" },
      { phoneNumber: "+14155550502", name: "Pierre Curie", email: "pierre@radium.org" },
      { phoneNumber: "+33612345678", name: "Irene", email: "irene@example.fr" },
    ]);
    const search = async (term: string) => {
      const res = await call("GET", `/api/v3/contact-books/${book}/contacts`, {
        token: me.globalToken,
        query: { search: term },
      });
      expect(res.status).toBe(200);
      return (res.body.data.contacts as { name: string }[]).map((c) => c.name).sort();
    };
    expect(await search("curie")).toEqual(["Marie Curie", "Pierre Curie"]);
    expect(await search("RADIUM")).toEqual(["Marie Curie", "Pierre Curie"]);
    expect(await search("+33 6")).toEqual(["Irene"]);
    expect(await search("0502")).toEqual(["Pierre Curie"]);
    expect(await search("nobody")).toEqual([]);

    const page = await call("GET", `/api/v2/contact-books/${book}/contacts`, {
      token: me.globalToken,
      query: { limit: 2, page: 2 },
    });
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, count: 1, hasMore: false });
    expect(page.body.data.items).toEqual(page.body.data.contacts);
    expect(page.body.data.contactBookUid).toBe(book);
    // Upload order within one upload: the third row is on page 2.
    expect(page.body.data.contacts[0].name).toBe("Irene");
  });
});

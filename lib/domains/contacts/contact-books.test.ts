// Contact books through the real router: the list contract of docs/api/contact-books.md, create, read,
// update, validation, token scope and tenant isolation, on v2 and v3.
import { beforeAll, describe, expect, it } from "vitest";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const BOOK_KEYS = [
  "color",
  "contactBookUid",
  "contactCount",
  "createdAt",
  "description",
  "name",
  "status",
  "uid",
  "updatedAt",
];

let me: TestCustomer;
let other: TestCustomer;
const tag = `t${Date.now().toString(36)}`;

async function createBook(token: string, contactBook: Record<string, unknown>) {
  const res = await call("POST", "/api/v3/contact-books", { token, body: { contactBook } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

beforeAll(async () => {
  [me, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  // Created one after another so the newest-first order is known.
  await createBook(me.globalToken, { name: `Alpha ${tag}`, description: "Spring customers", color: "#112233" });
  await createBook(me.globalToken, { name: `Beta ${tag}`, description: "VIP list", status: "INACTIVE" });
  await createBook(me.globalToken, { name: `Gamma ${tag}`, description: "newsletter ALPHA readers" });
  await createBook(other.globalToken, { name: `Alpha other ${tag}`, description: "other customer's book" });
});

describe("GET /contact-books list contract", () => {
  it("returns exactly contactBooks, items (same array) and pagination {page, limit, count, hasMore}", async () => {
    const res = await call("GET", "/api/v3/contact-books", { token: me.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(Object.keys(res.body.data).sort()).toEqual(["contactBooks", "items", "pagination"]);
    expect(res.body.data.items).toEqual(res.body.data.contactBooks);
    expect(Object.keys(res.body.data.pagination).sort()).toEqual(["count", "hasMore", "limit", "page"]);
    expect(res.body.data.pagination).toEqual({ page: 1, limit: 50, count: 3, hasMore: false });
    const names = res.body.data.contactBooks.map((b: { name: string }) => b.name);
    expect(names).toEqual([`Gamma ${tag}`, `Beta ${tag}`, `Alpha ${tag}`]);
    for (const book of res.body.data.contactBooks) {
      expect(Object.keys(book).sort()).toEqual(BOOK_KEYS);
      expect(book.uid).toBe(book.contactBookUid);
      expect(book.contactCount).toBe(0);
      expect(new Date(book.createdAt).toISOString()).toBe(book.createdAt);
      expect(new Date(book.updatedAt).toISOString()).toBe(book.updatedAt);
    }
  });

  it("never lists another customer's books", async () => {
    const res = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { search: "other" } });
    expect(res.body.data.contactBooks).toEqual([]);
    const theirs = await call("GET", "/api/v3/contact-books", { token: other.globalToken });
    expect(theirs.body.data.contactBooks.map((b: { name: string }) => b.name)).toEqual([`Alpha other ${tag}`]);
  });

  it("filters by status", async () => {
    const inactive = await call("GET", "/api/v3/contact-books", {
      token: me.globalToken,
      query: { status: "INACTIVE" },
    });
    expect(inactive.body.data.contactBooks.map((b: { name: string }) => b.name)).toEqual([`Beta ${tag}`]);
    const active = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { status: "ACTIVE" } });
    expect(active.body.data.contactBooks.map((b: { name: string }) => b.name)).toEqual([
      `Gamma ${tag}`,
      `Alpha ${tag}`,
    ]);
    const bad = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { status: "DELETED" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");
  });

  it("searches name or description, case-insensitively, and combines with status", async () => {
    const alpha = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { search: "alpha" } });
    expect(alpha.body.data.contactBooks.map((b: { name: string }) => b.name)).toEqual([`Gamma ${tag}`, `Alpha ${tag}`]);
    const vip = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { search: "vip" } });
    expect(vip.body.data.contactBooks.map((b: { name: string }) => b.name)).toEqual([`Beta ${tag}`]);
    // Search text is literal: LIKE wildcards match only themselves.
    for (const literal of ["%", "_", "Alph_", "\\"]) {
      const res = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { search: literal } });
      expect(res.body.data.contactBooks, literal).toEqual([]);
    }
    const both = await call("GET", "/api/v3/contact-books", {
      token: me.globalToken,
      query: { search: "vip", status: "ACTIVE" },
    });
    expect(both.status).toBe(200);
    expect(both.body.data).toEqual({
      contactBooks: [],
      items: [],
      pagination: { page: 1, limit: 50, count: 0, hasMore: false },
    });
  });

  it("paginates with hasMore and clamps bad page and limit values", async () => {
    const first = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { limit: 2 } });
    expect(first.body.data.pagination).toEqual({ page: 1, limit: 2, count: 2, hasMore: true });
    const second = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { limit: 2, page: 2 } });
    expect(second.body.data.pagination).toEqual({ page: 2, limit: 2, count: 1, hasMore: false });
    expect(second.body.data.contactBooks.map((b: { name: string }) => b.name)).toEqual([`Alpha ${tag}`]);

    const cases: [Record<string, string | number>, { page: number; limit: number }][] = [
      [
        { page: 0, limit: 0 },
        { page: 1, limit: 1 },
      ],
      [
        { page: -3, limit: -10 },
        { page: 1, limit: 1 },
      ],
      [
        { page: "abc", limit: "xyz" },
        { page: 1, limit: 50 },
      ],
      [{ limit: 1_000_000 }, { page: 1, limit: 100 }],
      [{ page: 999_999 }, { page: 999_999, limit: 50 }],
    ];
    for (const [query, expected] of cases) {
      const res = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query });
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.body.data.pagination.page).toBe(expected.page);
      expect(res.body.data.pagination.limit).toBe(expected.limit);
      expect(res.body.data.items).toEqual(res.body.data.contactBooks);
    }
    const far = await call("GET", "/api/v3/contact-books", { token: me.globalToken, query: { page: 999_999 } });
    expect(far.body.data).toEqual({
      contactBooks: [],
      items: [],
      pagination: { page: 999_999, limit: 50, count: 0, hasMore: false },
    });
  });

  it("gives v2 and v3 the same data", async () => {
    const v2 = await call("GET", "/api/v2/contact-books", { token: me.globalToken });
    const v3 = await call("GET", "/api/v3/contact-books", { token: me.globalToken });
    expect(v2.status).toBe(200);
    expect(v2.body.data).toEqual(v3.body.data);
    expect(v2.body.metadata.apiVersion).toBe("v2");
  });
});

describe("create, read and update", () => {
  it("creates with defaults, trims the name and reads it back", async () => {
    const book = await createBook(me.globalToken, { name: `  Trimmed ${tag}  ` });
    expect(book).toMatchObject({ name: `Trimmed ${tag}`, description: "", status: "ACTIVE", contactCount: 0 });
    expect(book.color).toMatch(/^#[0-9A-F]{6}$/);
    const read = await call("GET", `/api/v3/contact-books/${book.contactBookUid}`, { token: me.globalToken });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(book);
  });

  it("updates only the given fields and moves updatedAt", async () => {
    const book = await createBook(me.globalToken, { name: `Upd ${tag}`, description: "before", color: "#abcdef" });
    expect(book.color).toBe("#ABCDEF");
    const res = await call("POST", `/api/v2/contact-books/${book.uid}`, {
      token: me.globalToken,
      body: { contactBook: { status: "INACTIVE", description: "after" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: `Upd ${tag}`,
      description: "after",
      status: "INACTIVE",
      color: "#ABCDEF",
    });
    expect(res.body.data.createdAt).toBe(book.createdAt);
    expect(new Date(res.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(book.updatedAt).getTime());
  });

  it("rejects invalid input with VALIDATION_FAILED naming the field", async () => {
    const bad: [unknown, string][] = [
      [{ contactBook: { name: "" } }, "body.contactBook.name"],
      [{ contactBook: { name: "   " } }, "body.contactBook.name"],
      [{ contactBook: { name: "x".repeat(121) } }, "body.contactBook.name"],
      [{ contactBook: { name: "ok", color: "red" } }, "body.contactBook.color"],
      [{ contactBook: { name: "ok", color: "#12345" } }, "body.contactBook.color"],
      [{ contactBook: { name: "ok", status: "ARCHIVED" } }, "body.contactBook.status"],
      [{ name: "no wrapper" }, "body.contactBook"],
    ];
    for (const [body, path] of bad) {
      const res = await call("POST", "/api/v3/contact-books", { token: me.globalToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
  });

  it("refuses an update without any field", async () => {
    const book = await createBook(me.globalToken, { name: `Empty upd ${tag}` });
    for (const body of [{ contactBook: {} }, {}]) {
      const res = await call("POST", `/api/v3/contact-books/${book.uid}`, { token: me.globalToken, body });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
    }
  });

  it("answers an unknown uid with 404 NOT_FOUND", async () => {
    const get = await call("GET", "/api/v3/contact-books/cnope0000000000000000", { token: me.globalToken });
    expect(get.status).toBe(404);
    expect(get.body.error_code).toBe("NOT_FOUND");
  });
});

describe("token scope and tenant isolation", () => {
  it("refuses number-scoped tokens on contact books and fields", async () => {
    const book = await createBook(me.globalToken, { name: `Scoped ${tag}` });
    const attempts: [string, string, unknown?][] = [
      ["GET", "/api/v3/contact-books"],
      ["POST", "/api/v3/contact-books", { contactBook: { name: "x" } }],
      ["GET", `/api/v3/contact-books/${book.uid}`],
      ["POST", `/api/v3/contact-books/${book.uid}`, { contactBook: { name: "x" } }],
      ["GET", `/api/v3/contact-books/${book.uid}/contacts`],
      ["POST", `/api/v3/contact-books/${book.uid}/contacts/bulk`, { contacts: [{ phoneNumber: "+14155550100" }] }],
      ["GET", "/api/v2/contact-fields"],
      ["POST", "/api/v3/contact-fields", { field: { key: "k", label: "K", type: "text" } }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { token: me.scopedToken, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    }
    const after = await call("GET", `/api/v3/contact-books/${book.uid}`, { token: me.globalToken });
    expect(after.body.data.name).toBe(`Scoped ${tag}`);
    expect(after.body.data.contactCount).toBe(0);
  });

  it("hides another customer's book: 404 on get, update, contacts and bulk, and nothing changes", async () => {
    const theirs = await createBook(other.globalToken, { name: `Theirs ${tag}` });
    const attempts: [string, string, unknown?][] = [
      ["GET", `/api/v3/contact-books/${theirs.uid}`],
      ["POST", `/api/v3/contact-books/${theirs.uid}`, { contactBook: { name: "hijacked" } }],
      ["GET", `/api/v3/contact-books/${theirs.uid}/contacts`],
      ["POST", `/api/v3/contact-books/${theirs.uid}/contacts/bulk`, { contacts: [{ phoneNumber: "+14155550100" }] }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { token: me.globalToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error_code).toBe("NOT_FOUND");
    }
    const still = await call("GET", `/api/v3/contact-books/${theirs.uid}`, { token: other.globalToken });
    expect(still.body.data.name).toBe(`Theirs ${tag}`);
    expect(still.body.data.contactCount).toBe(0);
  });

  it("asks for a token", async () => {
    const res = await call("GET", "/api/v3/contact-books");
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe("MISSING_AUTH_TOKEN");
  });
});

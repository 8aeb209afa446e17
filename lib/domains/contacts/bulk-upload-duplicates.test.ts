// One rule for a phone number repeated in an upload (docs/api/contact-books.md "Bulk upload"):
// the first row wins and every later row with that number is refused as
// DUPLICATE_PHONE_NUMBER naming the first one's row, whether both are in one request or in
// two requests of one upload (the same uploadId: a file sent in chunks). Through the real
// router, on PGlite and PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

recordApiAnswers();

let me: TestCustomer;
const tag = `d${Date.now().toString(36)}`;
type RowError = { index: number; error_code: string; message: string };

async function newBook(name: string): Promise<string> {
  const res = await call("POST", "/api/v3/contact-books", { token: me.globalToken, body: { contactBook: { name } } });
  expect(res.status).toBe(201);
  return res.body.data.uid;
}

async function upload(bookUid: string, body: Record<string, unknown>) {
  return call("POST", `/api/v3/contact-books/${bookUid}/contacts/bulk`, { token: me.globalToken, body });
}

async function contactNamed(bookUid: string, phone: string) {
  const res = await call("GET", `/api/v3/contact-books/${bookUid}/contacts`, {
    token: me.globalToken,
    query: { search: phone },
  });
  return res.body.data.contacts as { phoneNumber: string; name: string | null }[];
}

beforeAll(async () => {
  me = await createTestCustomer();
});

describe("a repeated phone number in a bulk upload", () => {
  it("inside one request: refused naming the first one's row, counted from 1 without rowNumbers", async () => {
    const book = await newBook(`One request ${tag}`);
    const res = await upload(book, {
      contacts: [
        { phoneNumber: "+14155550501", name: "First" },
        { phoneNumber: "+14155550502" },
        { phoneNumber: "+1 415 555 0501", name: "Second" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: 3, created: 2, updated: 0, failed: 1 });
    expect(res.body.data.errors).toEqual([
      {
        index: 2,
        error_code: "DUPLICATE_PHONE_NUMBER",
        message: "+14155550501 already appears in row 1 of this upload",
      },
    ]);
    expect((await contactNamed(book, "4155550501"))[0]?.name).toBe("First");
  });

  it("inside one request with rowNumbers: the messages name the file's rows", async () => {
    const book = await newBook(`Rows ${tag}`);
    const res = await upload(book, {
      contacts: [{ phoneNumber: "+14155550511" }, { phoneNumber: "+14155550512" }, { phoneNumber: "+14155550511" }],
      rowNumbers: [2, 3, 5],
    });
    expect(res.body.data.errors).toEqual([
      {
        index: 2,
        error_code: "DUPLICATE_PHONE_NUMBER",
        message: "+14155550511 already appears in row 2 of this upload",
      },
    ]);
  });

  it("across two requests of one upload: the later row is refused naming the first, which stays as it was", async () => {
    const book = await newBook(`Across ${tag}`);
    const uploadId = `file-${tag}-across`;
    const first = await upload(book, {
      contacts: [{ phoneNumber: "+14155550521", name: "Ada" }, { phoneNumber: "+14155550522" }],
      uploadId,
      rowNumbers: [2, 3],
    });
    expect(first.body.data).toEqual({ received: 2, created: 2, updated: 0, failed: 0, errors: [] });
    const second = await upload(book, {
      contacts: [
        { phoneNumber: "+14155550523" },
        { phoneNumber: "+14155550521", name: "Not Ada" },
        { phoneNumber: "not a number" },
      ],
      uploadId,
      rowNumbers: [502, 503, 504],
    });
    // A brand-new book: nothing is "updated"; received = created + updated + failed.
    expect(second.body.data).toMatchObject({ received: 3, created: 1, updated: 0, failed: 2 });
    expect(second.body.data.errors.map((e: RowError) => [e.index, e.error_code])).toEqual([
      [1, "DUPLICATE_PHONE_NUMBER"],
      [2, "INVALID_PHONE_NUMBER"],
    ]);
    expect(second.body.data.errors[0].message).toBe("+14155550521 already appears in row 2 of this upload");
    expect((await contactNamed(book, "4155550521"))[0]?.name).toBe("Ada");

    // Another upload of the same number (a new id, or none) updates the contact as before.
    const later = await upload(book, { contacts: [{ phoneNumber: "+14155550521", name: "Ada L" }] });
    expect(later.body.data).toEqual({ received: 1, created: 0, updated: 1, failed: 0, errors: [] });
    expect((await contactNamed(book, "4155550521"))[0]?.name).toBe("Ada L");
  });

  it("two requests of one upload at once with the same number: one stores it, the other refuses it", async () => {
    const book = await newBook(`Race ${tag}`);
    const uploadId = `file-${tag}-race`;
    const [a, b] = await Promise.all([
      upload(book, { contacts: [{ phoneNumber: "+14155550531", name: "A" }], uploadId, rowNumbers: [2] }),
      upload(book, { contacts: [{ phoneNumber: "+14155550531", name: "B" }], uploadId, rowNumbers: [900] }),
    ]);
    const reports = [a.body.data, b.body.data];
    expect(reports.map((r) => r.created).sort()).toEqual([0, 1]);
    expect(reports.map((r) => r.failed).sort()).toEqual([0, 1]);
    for (const r of reports) expect(r.updated).toBe(0);
    const refused = reports.find((r) => r.failed === 1);
    const stored = await contactNamed(book, "4155550531");
    expect(stored).toHaveLength(1);
    // The refusal names the row of the one that was stored.
    expect(refused.errors[0].message).toContain(`row ${stored[0]?.name === "A" ? 2 : 900} of this upload`);
  });

  it("refuses rowNumbers that do not give one row per contact, and a malformed uploadId", async () => {
    const book = await newBook(`Shape ${tag}`);
    const short = await upload(book, { contacts: [{ phoneNumber: "+14155550541" }], rowNumbers: [2, 3] });
    expect(short.status).toBe(400);
    expect(short.body.error_code).toBe("VALIDATION_FAILED");
    expect(JSON.stringify(short.body.details)).toContain("rowNumbers");
    const zero = await upload(book, { contacts: [{ phoneNumber: "+14155550541" }], rowNumbers: [0] });
    expect(zero.status).toBe(400);
    const badId = await upload(book, { contacts: [{ phoneNumber: "+14155550541" }], uploadId: "x y" });
    expect(badId.status).toBe(400);
    expect(JSON.stringify(badId.body.details)).toContain("uploadId");
    const read = await call("GET", `/api/v3/contact-books/${book}`, { token: me.globalToken });
    expect(read.body.data.contactCount).toBe(0);
  });
});

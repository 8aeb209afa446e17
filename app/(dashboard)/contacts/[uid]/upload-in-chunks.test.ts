// The dashboard's chunked upload and the API agree (docs/dashboard.md "Contact upload"): a
// CSV read as the page reads it, sent in chunks of 500 as the page sends it, through the
// real router, reports what one request of the whole file reports: the same counts, the
// same refused rows with the same messages, rows numbered as a spreadsheet shows the file.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { mapRows, parseCsvContacts } from "./parse-file";
import { CHUNK_ROWS, type ChunkReport, uploadInChunks } from "./upload-in-chunks";

let me: TestCustomer;
const tag = `c${Date.now().toString(36)}`;

async function newBook(name: string): Promise<string> {
  const res = await call("POST", "/api/v3/contact-books", { token: me.globalToken, body: { contactBook: { name } } });
  expect(res.status).toBe(201);
  return res.body.data.uid;
}

const post = (book: string) => async (body: unknown) => {
  const res = await call("POST", `/api/v3/contact-books/${book}/contacts/bulk`, { token: me.globalToken, body });
  expect(res.status).toBe(200);
  return res.body.data as ChunkReport;
};

/** A CSV of `n` contacts with a header; `repeat` maps a contact's place to the place it copies. */
function csvOf(n: number, prefix: string, repeat: Record<number, number>): string {
  const phone = (i: number) => `${prefix}${String(i).padStart(5, "0")}`;
  const lines = ["phone,name"];
  for (let i = 0; i < n; i++) lines.push(`${phone(repeat[i] ?? i)},Person ${i}`);
  return lines.join("\n");
}

beforeAll(async () => {
  me = await createTestCustomer();
});

describe("the dashboard's chunked upload", () => {
  it("reads a CSV's rows as a spreadsheet numbers them: the header is row 1, a blank line keeps its number", async () => {
    const parsed = await parseCsvContacts(
      "phone,name\n+14155550601,Ada\n\n+14155550602,Alan\n   \n+14155550603,Grace\n",
    );
    expect(parsed.rows.map((r) => r.name)).toEqual(["Ada", "Alan", "Grace"]);
    expect(parsed.rowNumbers).toEqual([2, 4, 6]);
  });

  it("reports what one request of the whole file reports, duplicates inside a chunk and across chunks alike", async () => {
    // 1,200 contacts: three chunks. Contact 10 repeats contact 3 (one chunk); contact 900
    // repeats contact 20 (chunks 1 and 2); contact 1,100 repeats contact 700 (chunks 2 and 3).
    const parsed = await parseCsvContacts(csvOf(1_200, "+4420700", { 10: 3, 900: 20, 1100: 700 }));
    const contacts = mapRows(parsed.rows, { phone: "phoneNumber", name: "name" });
    expect(contacts.length).toBeGreaterThan(2 * CHUNK_ROWS);

    const whole = await post(await newBook(`Whole ${tag}`))({ contacts, rowNumbers: parsed.rowNumbers });
    const chunked = await uploadInChunks({
      contacts,
      rowNumbers: parsed.rowNumbers,
      uploadId: `file-${tag}-1`,
      post: post(await newBook(`Chunked ${tag}`)),
    });

    expect(chunked).toMatchObject({ received: 1_200, created: 1_197, updated: 0, failed: 3 });
    expect({ ...chunked, errors: chunked.errors.map(({ row: _row, ...e }) => e) }).toEqual(whole);
    // Contact i is on the file's row i + 2; each refusal names the row of the first.
    expect(chunked.errors.map((e) => [e.row, e.message])).toEqual([
      [12, "+442070000003 already appears in row 5 of this upload"],
      [902, "+442070000020 already appears in row 22 of this upload"],
      [1_102, "+442070000700 already appears in row 702 of this upload"],
    ]);
  });

  it("a 10,000-row file in 20 chunks creates no update in a new book and refuses each repeat", async () => {
    const parsed = await parseCsvContacts(csvOf(10_000, "+4420710", { 499: 0, 9999: 1 }));
    const chunked = await uploadInChunks({
      contacts: mapRows(parsed.rows, { phone: "phoneNumber", name: "name" }),
      rowNumbers: parsed.rowNumbers,
      uploadId: `file-${tag}-2`,
      post: post(await newBook(`Ten thousand ${tag}`)),
    });
    expect(chunked).toMatchObject({ received: 10_000, created: 9_998, updated: 0, failed: 2 });
    expect(chunked.errors.map((e) => [e.index, e.row, e.message])).toEqual([
      [499, 501, "+442071000000 already appears in row 2 of this upload"],
      [9_999, 10_001, "+442071000001 already appears in row 3 of this upload"],
    ]);
  }, 120_000);
});

// What a broadcast's dashboard page reads beyond the API (docs/broadcasts.md "For the
// dashboard"), on a broadcast sent through the real router and dispatcher: failures grouped
// by the provider's code with their meaning, and the recipients CSV streamed batch by batch
// through its dashboard route (filters, the export recorded, another customer's uid).
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { providerErrorMeaning } from "@/lib/domains/provider/error-meanings";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";
import { dispatchOnce } from "./dispatcher";
import { RECIPIENT_CSV_COLUMNS, recipientsCsv } from "./recipients-csv";
import { failuresByCode } from "./service";

const exportRoute = await import("@/app/api/dashboard/[...path]/route");

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let a: Customer;
let owner: Principal;
let stranger: Principal;
let uid: string;
const numbers = Array.from({ length: 7 }, () => uniquePhone());
const banned = numbers[6] ?? "";

const principalOf = async (customerId: string): Promise<Principal> => {
  const user = await db.user.create({
    data: { customerId, email: `bd-${uniquePhone().slice(1)}@example.test`, passwordHash: "x" },
  });
  return {
    customerId,
    plan: "pro",
    via: "session",
    userId: user.id,
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId: user.id, email: user.email, name: null, role: "owner", senderIds: null },
  };
};

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, chunks };
    chunks += 1;
    text += decoder.decode(value, { stream: true });
  }
}

const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

beforeAll(async () => {
  a = await messagingCustomer({ credit: 100 });
  owner = await principalOf(a.customer.id);
  stranger = await principalOf((await createTestCustomer()).customer.id);
  const book = await db.contactBook.create({ data: { customerId: a.customer.id, name: `Book ${uniquePhone()}` } });
  await db.contact.createMany({
    data: numbers.map((phoneNumber, i) => ({
      customerId: a.customer.id,
      contactBookId: book.id,
      phoneNumber,
      name: `Contact ${i}`,
    })),
  });
  await db.blacklistEntry.create({ data: { customerId: a.customer.id, senderId: a.sender.id, phoneNumber: banned } });
  const created = await call("POST", "/api/v3/broadcasts", {
    token: a.globalToken,
    body: {
      broadcast: {
        name: "Dashboard export",
        template: { name: "spring_sale", language: "en" },
        audience: { contactBookUids: [book.id] },
        variables: { body: [{ source: "name" }] },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  uid = created.body.data.broadcastUid;
  const started = await call("POST", `/api/v3/broadcasts/${uid}/start`, { token: a.globalToken, body: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  for (let i = 0; i < 200; i++) {
    await dispatchOnce({ customerIds: [a.customer.id] });
    if ((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status !== "SENDING") break;
  }
  expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("COMPLETED");
  // The provider's failed statuses for three of them (as the callback processor records them).
  const [x, y, z] = numbers;
  for (const [phoneNumber, errorCode] of [
    [x, 131026],
    [y, 131026],
    [z, 131049],
  ] as const) {
    await db.broadcastRecipient.updateMany({
      where: { broadcastId: uid, phoneNumber },
      data: { status: "failed", errorCode, failedAt: new Date() },
    });
  }
}, 120_000);

describe("failures by code", () => {
  it("groups the failed recipients by the provider's code, most first; the code has a meaning", async () => {
    expect(await failuresByCode(owner, undefined, uid)).toEqual([
      { errorCode: 131026, count: 2 },
      { errorCode: 131049, count: 1 },
    ]);
    expect(providerErrorMeaning(131026).title).toBe("Message undeliverable");
    expect(providerErrorMeaning(131049).whatToDo).toMatch(/24 hours/);
    expect(providerErrorMeaning(999_999)).toEqual({ title: "Provider error 999999", whatToDo: null });
  });

  it("is BROADCAST_NOT_FOUND for another customer", async () => {
    await expect(failuresByCode(stranger, undefined, uid)).rejects.toMatchObject({ code: "BROADCAST_NOT_FOUND" });
  });
});

describe("the recipients CSV", () => {
  it("streams every recipient batch by batch, with the failures' meaning", async () => {
    const { text, chunks } = await readAll(await recipientsCsv(owner, uid, {}, 2));
    // The header with the first batch, then one chunk per batch of 2 (7 recipients).
    expect(chunks).toBe(4);
    expect(text.split("\n")[0]).toBe(RECIPIENT_CSV_COLUMNS.join(","));
    const rows = rowsOf(text);
    expect(rows.map((r) => r.phoneNumber).sort()).toEqual([...numbers].sort());
    const byNumber = new Map(rows.map((r) => [r.phoneNumber, r]));
    expect(byNumber.get(banned)).toMatchObject({ status: "skipped", skipReason: "blacklisted", errorCode: "" });
    expect(byNumber.get(numbers[0] ?? "")).toMatchObject({
      status: "failed",
      errorCode: "131026",
      errorMeaning: "Message undeliverable",
    });
    const sent = rows.filter((r) => ["accepted", "sent", "delivered", "read"].includes(r.status ?? ""));
    expect(sent).toHaveLength(3);
    for (const r of sent) expect(r.providerMessageId).not.toBe("");
  });

  it("keeps the page's filters: status and part of the number", async () => {
    const failed = rowsOf((await readAll(await recipientsCsv(owner, uid, { status: "failed" }))).text);
    expect(failed.map((r) => r.errorCode).sort()).toEqual(["131026", "131026", "131049"]);
    const one = rowsOf((await readAll(await recipientsCsv(owner, uid, { search: banned.slice(-6) }))).text);
    expect(one.map((r) => r.phoneNumber)).toEqual([banned]);
    const none = await readAll(await recipientsCsv(owner, uid, { status: "read" }));
    expect(none.text.trim()).toBe(RECIPIENT_CSV_COLUMNS.join(","));
  });

  it("is refused for another customer's broadcast before any byte", async () => {
    await expect(recipientsCsv(stranger, uid, {})).rejects.toBeInstanceOf(ApiError);
    await expect(recipientsCsv(stranger, uid, {})).rejects.toMatchObject({ code: "BROADCAST_NOT_FOUND" });
  });

  it("downloads through its dashboard route as an attachment, and the export is recorded", async () => {
    nextRequest.principal = owner;
    const url = `http://dash.test/api/dashboard/broadcasts/${uid}/recipients/export?status=failed&sender=x`;
    const res = await exportRoute.GET(new Request(url, { headers: { Host: "dash.test" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${uid}-recipients-failed.csv"`);
    expect(rowsOf(await res.text())).toHaveLength(3);
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { customerId: a.customer.id, action: "export.downloaded" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit).toMatchObject({ targetUid: "broadcast-recipients" });
    expect(audit.details).toMatchObject({ filters: { broadcastUid: uid, status: "failed" } });

    nextRequest.principal = stranger;
    const refused = await exportRoute.GET(new Request(url, { headers: { Host: "dash.test" } }));
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error_code: "BROADCAST_NOT_FOUND" });
  });
});

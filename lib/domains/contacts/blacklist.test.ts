// GET /blacklist lists the resolved sender's entries only; the helpers the messaging code
// uses are scoped to the customer and the sender.
import { beforeAll, describe, expect, it } from "vitest";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { addToBlacklist, isBlacklisted } from "./blacklist";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

let me: TestCustomer;
let other: TestCustomer;

beforeAll(async () => {
  [me, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  await addToBlacklist(me.customer.id, me.sender.id, "+1 415 555 0601", "asked to stop");
  await addToBlacklist(me.customer.id, me.sender.id, "+14155550602");
  await addToBlacklist(me.customer.id, me.otherSender.id, "+14155550603");
  await addToBlacklist(other.customer.id, other.sender.id, "+14155550604");
});

const numbers = (body: { data: { entries: { phoneNumber: string }[] } }) =>
  body.data.entries.map((e) => e.phoneNumber).sort();

describe("GET /blacklist", () => {
  it("lists the default sender's entries for a global token", async () => {
    const res = await call("GET", "/api/v3/blacklist", { token: me.globalToken });
    expect(res.status).toBe(200);
    expect(numbers(res.body)).toEqual(["+14155550601", "+14155550602"]);
    expect(res.body.data.senderId).toBe(me.sender.phoneNumber);
    expect(res.body.data.items).toEqual(res.body.data.entries);
    expect(res.body.data.pagination).toMatchObject({ page: 1, limit: 50, total: 2, count: 2, hasMore: false });
    const entry = res.body.data.entries.find((e: { phoneNumber: string }) => e.phoneNumber === "+14155550601");
    expect(entry).toEqual({
      phoneNumber: "+14155550601",
      reason: "asked to stop",
      source: "api",
      inboundMessageId: null,
      createdAt: expect.any(String),
    });
    expect(res.headers.get("x-service-phone-number-id")).toBe(me.sender.phoneNumberId);
  });

  it("lists another sender's entries when asked by senderId", async () => {
    const res = await call("GET", "/api/v2/blacklist", {
      token: me.globalToken,
      query: { senderId: me.otherSender.phoneNumber },
    });
    expect(numbers(res.body)).toEqual(["+14155550603"]);
  });

  it("lets a number-scoped token read its own sender only", async () => {
    const own = await call("GET", "/api/v3/blacklist", { token: me.scopedToken });
    expect(own.status).toBe(200);
    expect(numbers(own.body)).toEqual(["+14155550601", "+14155550602"]);
    const another = await call("GET", "/api/v3/blacklist", {
      token: me.scopedToken,
      query: { senderId: me.otherSender.phoneNumber },
    });
    expect(another.status).toBe(403);
    expect(another.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
  });

  it("never reaches another customer's sender", async () => {
    const res = await call("GET", "/api/v3/blacklist", {
      token: me.globalToken,
      query: { senderId: other.sender.phoneNumber },
    });
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe("SENDER_NOT_FOUND");
  });

  it("paginates and searches", async () => {
    const page = await call("GET", "/api/v3/blacklist", { token: me.globalToken, query: { limit: 1, page: 2 } });
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2, count: 1, hasMore: false });
    const found = await call("GET", "/api/v3/blacklist", { token: me.globalToken, query: { search: "0602" } });
    expect(numbers(found.body)).toEqual(["+14155550602"]);
  });
});

describe("blacklist helpers", () => {
  it("checks per customer and sender", async () => {
    expect(await isBlacklisted(me.customer.id, me.sender.id, "+14155550601")).toBe(true);
    expect(await isBlacklisted(me.customer.id, me.sender.id, "+1 (415) 555-0601")).toBe(true);
    expect(await isBlacklisted(me.customer.id, me.otherSender.id, "+14155550601")).toBe(false);
    expect(await isBlacklisted(other.customer.id, me.sender.id, "+14155550601")).toBe(false);
  });

  it("adds idempotently and refuses another customer's sender", async () => {
    const a = await addToBlacklist(me.customer.id, me.sender.id, "+14155550699");
    const b = await addToBlacklist(me.customer.id, me.sender.id, "+14155550699");
    expect(b.id).toBe(a.id);
    await expect(addToBlacklist(me.customer.id, other.sender.id, "+14155550698")).rejects.toMatchObject({
      code: "SENDER_NOT_FOUND",
    });
    expect(await isBlacklisted(other.customer.id, other.sender.id, "+14155550698")).toBe(false);
  });
});

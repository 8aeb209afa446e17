// Per-token usage (docs/tokens.md "Usage"), recorded by the real router: counts match the
// requests made, errors count as errors, no secret reaches the stored path, and a customer
// never sees another's usage.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, createTestCustomer } from "@/test/factory";
import { hashToken } from "./token-string";
import { flushUsage, RECENT_LIMIT, recordUsage, usageFor } from "./usage";

const tokenId = async (token: string) =>
  (await db.apiToken.findUniqueOrThrow({ where: { hash: hashToken(token) } })).id;

describe("API usage recording", () => {
  it("records every request of a token once, with hourly counts and errors counted as errors", async () => {
    const c = await createTestCustomer();
    const id = await tokenId(c.globalToken);
    for (let i = 0; i < 5; i++)
      expect((await call("GET", "/api/v2/chatbots", { token: c.globalToken })).status).toBe(200);
    const failed = await call("GET", "/api/v2/chatbots", { token: c.globalToken, query: { senderId: "+19999999999" } });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    // A request with no valid token belongs to no token: not recorded.
    await call("GET", "/api/v2/chatbots", { token: "swb_live_notarealtokennotarealtokennotarealtoken" });
    await flushUsage();

    const rows = await db.apiRequestLog.findMany({ where: { tokenId: id }, orderBy: { at: "asc" } });
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.status >= 400)).toHaveLength(1);
    expect(rows[0]).toMatchObject({ customerId: c.customer.id, method: "GET", path: "/api/v2/chatbots", status: 200 });
    expect(rows[0].requestId).toMatch(/^req_/);
    expect(rows[0].clientIp).toMatch(/^10\./);
    expect(rows[0].latencyMs).toBeGreaterThanOrEqual(0);

    const usage = await usageFor({ customerId: c.customer.id }, { tokenId: id });
    expect(usage.totals).toEqual({ requests: 6, errors: 1, errorRate: 1 / 6 });
    expect(usage.recent).toHaveLength(6);
    expect(usage.recent[0].status).toBe(failed.status);
    expect(usage.recent.map((r) => r.requestId)).toContain(failed.headers.get("X-Service-Request-Id"));
  });

  it("keeps the token out of the recorded path, whichever query field carried it", async () => {
    const c = await createTestCustomer();
    const id = await tokenId(c.globalToken);
    for (const field of ["token", "authToken", "auth_token"]) {
      const res = await call("GET", "/api/v2/chatbots", { query: { [field]: c.globalToken, page: 1 } });
      expect(res.status).toBeLessThan(500);
    }
    await flushUsage();
    const rows = await db.apiRequestLog.findMany({ where: { tokenId: id } });
    expect(rows).toHaveLength(3);
    const secret = c.globalToken.slice("swb_live_".length);
    for (const r of rows) {
      expect(JSON.stringify(r, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(secret);
      expect(r.path).toMatch(/(token|authToken|auth_token)=%5Bredacted%5D/);
    }
  });

  it("shows a customer its own usage only, per token and for the account", async () => {
    const a = await createTestCustomer();
    const b = await createTestCustomer();
    const bId = await tokenId(b.globalToken);
    await call("GET", "/api/v2/chatbots", { token: a.globalToken });
    await call("GET", "/api/v2/chatbots", { token: a.scopedToken });
    await call("GET", "/api/v2/chatbots", { token: b.globalToken });
    await flushUsage();

    const account = await usageFor({ customerId: a.customer.id });
    expect(account.totals.requests).toBe(2);
    expect(new Set(account.recent.map((r) => r.tokenId))).toEqual(
      new Set([await tokenId(a.globalToken), await tokenId(a.scopedToken)]),
    );
    // Another customer's token id finds nothing.
    const foreign = await usageFor({ customerId: a.customer.id }, { tokenId: bId });
    expect(foreign).toMatchObject({ totals: { requests: 0, errors: 0 }, recent: [], hours: [] });
    expect((await usageFor({ customerId: b.customer.id }, { tokenId: bId })).totals.requests).toBe(1);
  });

  it("returns the last 100 requests, newest first, with all of them counted", async () => {
    const c = await createTestCustomer();
    const id = await tokenId(c.globalToken);
    const base = Date.now() - 60_000;
    for (let i = 0; i < RECENT_LIMIT + 20; i++) {
      recordUsage({
        customerId: c.customer.id,
        tokenId: id,
        at: new Date(base + i),
        method: "GET",
        path: `/api/v2/chatbots?page=${i}`,
        status: 200,
        latencyMs: 1,
        clientIp: "10.0.0.1",
        requestId: `req_${i}`,
      });
    }
    await flushUsage();
    const usage = await usageFor({ customerId: c.customer.id }, { tokenId: id });
    expect(usage.totals.requests).toBe(RECENT_LIMIT + 20);
    expect(usage.recent).toHaveLength(RECENT_LIMIT);
    expect(usage.recent[0].requestId).toBe(`req_${RECENT_LIMIT + 19}`);
  });
});

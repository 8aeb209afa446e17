// proxy.ts (the Next proxy): only dashboard pages send a signed-out visitor to the login;
// an /api path no route serves is the 404 envelope; any other path is Next's 404 page.
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { DASHBOARD_SECTIONS, isDashboardPage, proxy } from "@/proxy";

const at = (p: string, method = "GET") => proxy(new NextRequest(`http://localhost${p}`, { method }));

describe("proxy", () => {
  it("knows every dashboard section (one per folder of app/(dashboard))", () => {
    const root = path.join(process.cwd(), "app/(dashboard)");
    const folders = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...DASHBOARD_SECTIONS].sort()).toEqual(["", ...folders].sort());
    expect(isDashboardPage("/")).toBe(true);
    expect(isDashboardPage("/webhooks/wh_1")).toBe(true);
    expect(isDashboardPage("/billingx")).toBe(false);
  });

  it("sends a signed-out visitor of a dashboard page to the login, with the way back", async () => {
    const res = await at("/webhooks?x=1");
    expect(res.status).toBe(307);
    const login = new URL(res.headers.get("location") ?? "");
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("callbackUrl")).toBe("/webhooks?x=1");
  });

  it("answers an unknown /api path with the 404 envelope (JSON), never a redirect", async () => {
    for (const p of ["/api/v4/123/messages", "/api/whatever", "/api"]) {
      for (const method of ["GET", "POST"]) {
        const res = await at(p, method);
        expect(res.status, p).toBe(404);
        expect(res.headers.get("location"), p).toBeNull();
        expect(res.headers.get("content-type"), p).toMatch(/^application\/json/);
        const body = await res.json();
        expect(body).toMatchObject({ success: false, error_code: "NOT_FOUND" });
        expect(body.message).toBe(`No route for ${method} ${p}`);
        expect(body.metadata.requestId).toMatch(/^req_[0-9a-f]{24}$/);
      }
    }
  });

  it("leaves any other unknown path to Next (its 404 page), signed in or not", async () => {
    for (const p of ["/nowhere", "/billingx", "/v3/billing/messages"]) {
      const res = await at(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get("location"), p).toBeNull();
      expect(res.headers.get("x-middleware-next"), p).toBe("1");
    }
  });
});

describe("server actions (a POST to a page)", () => {
  const action = (p: string, headers: Record<string, string>) =>
    proxy(
      new NextRequest(`http://localhost${p}`, {
        method: "POST",
        headers: { "Next-Action": "7f00aa", "Content-Type": "text/plain;charset=UTF-8", ...headers },
        body: '["x"]',
      }),
    );

  it.each([
    ["no Origin and no Sec-Fetch-Site", {}],
    ["a foreign Origin", { Origin: "https://evil.example" }],
    ["a foreign Origin claiming same-origin", { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" }],
    ["Sec-Fetch-Site cross-site", { Origin: "http://localhost", "Sec-Fetch-Site": "cross-site" }],
    ["Origin null", { Origin: "null" }],
  ])("%s: 403 CROSS_ORIGIN_REQUEST before Next runs the action", async (_what, headers) => {
    for (const p of ["/tokens", "/signup", "/contacts/cb_1", "/"]) {
      const res = await action(p, headers);
      expect(res.status, p).toBe(403);
      expect(res.headers.get("x-middleware-next"), p).toBeNull();
      expect(await res.json()).toMatchObject({ success: false, error_code: "CROSS_ORIGIN_REQUEST" });
    }
  });

  it("lets the dashboard's own action through (to the session check of a dashboard page)", async () => {
    const own = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };
    expect((await action("/signup", own)).headers.get("x-middleware-next")).toBe("1");
    expect((await action("/tokens", own)).status).toBe(307);
  });
});

// Under `next start` alone (no front server), an /api path no handler serves reaches
// app/api/[...path]: the router's 404 envelope, never Next's HTML 404 page or a redirect
// (docs/architecture.md "Errors"). Which handler Next picks is decided
// here with Next's own route sorting and matching, over the route files on disk.
import fs from "node:fs";
import path from "node:path";
import { getRouteRegex } from "next/dist/shared/lib/router/utils/route-regex";
import { getSortedRoutes } from "next/dist/shared/lib/router/utils/sorted-routes";
import { describe, expect, it } from "vitest";
import * as catchAll from "@/app/api/[...path]/route";
import * as dashboardCatchAll from "@/app/api/dashboard/[...path]/route";
import { config } from "@/proxy";

const APP_API = path.join(process.cwd(), "app/api");

/** "/api/v3/[...path]", "/api/auth/[...nextauth]", ... one per route.ts under app/api. */
function apiRoutes(dir = APP_API, prefix = "/api"): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === "route.ts") found.push(prefix);
    if (entry.isDirectory()) found.push(...apiRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`));
  }
  return found;
}

/** The route Next serves a path with: the first of its sorted routes whose pattern matches. */
function handlerOf(pathname: string): string | undefined {
  return getSortedRoutes(apiRoutes()).find((r) => getRouteRegex(r).re.test(pathname));
}

/** Whether proxy.ts sees the path at all (its matcher, as Next anchors it). */
const proxySees = (pathname: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(pathname));

const UNKNOWN = [
  "/api/v2x/123/messages",
  "/api/v30/webhooks",
  "/api/v4/123/messages",
  "/api/dashboard/nope",
  "/api/provider/other",
  "/api/whatever/deep/path",
];

describe("an unknown /api path under next start alone", () => {
  it("is served by the catch-all (or answered by the proxy), the known ones by their own handlers", () => {
    for (const p of UNKNOWN) {
      if (proxySees(p)) continue; // proxy.ts answers it with the same envelope (test/proxy.test.ts)
      // Under /api/dashboard the router's session mount answers, with the same envelope (below).
      expect(handlerOf(p), p).toBe(p.startsWith("/api/dashboard/") ? "/api/dashboard/[...path]" : "/api/[...path]");
    }
    expect(proxySees("/api/v2x/123/messages")).toBe(false); // the case that used to get HTML
    expect(handlerOf("/api/v3/webhooks")).toBe("/api/v3/[...path]");
    expect(handlerOf("/api/v2/openapi.json")).toBe("/api/v2/[...path]");
    expect(handlerOf("/api/auth/session")).toBe("/api/auth/[...nextauth]");
    // The live stream is a route of the session mount now (lib/api/dashboard-routes/live.ts).
    expect(handlerOf("/api/dashboard/live")).toBe("/api/dashboard/[...path]");
    // The message log is a route of the router now (lib/api/dashboard-routes/messages.ts).
    expect(handlerOf("/api/dashboard/messages")).toBe("/api/dashboard/[...path]");
    expect(handlerOf("/api/provider/webhook")).toBe("/api/provider/webhook");
  });

  it("gets the 404 envelope (JSON, no redirect) for every method", async () => {
    const api = { GET: catchAll.GET, POST: catchAll.POST, PUT: catchAll.PUT, DELETE: catchAll.DELETE };
    const dashboard = {
      GET: dashboardCatchAll.GET,
      POST: dashboardCatchAll.POST,
      PUT: dashboardCatchAll.PUT,
      DELETE: dashboardCatchAll.DELETE,
    };
    for (const p of UNKNOWN) {
      const handlers = p.startsWith("/api/dashboard/") ? dashboard : api;
      for (const [method, handler] of Object.entries(handlers)) {
        const body = method === "GET" || method === "DELETE" ? undefined : "{}";
        const res = await handler(
          new Request(`http://localhost${p}`, { method, body, headers: { "Content-Type": "application/json" } }),
        );
        expect(res.status, `${method} ${p}`).toBe(404);
        expect(res.headers.get("location")).toBeNull();
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        const json = await res.json();
        expect(json).toMatchObject({ success: false, error_code: "NOT_FOUND" });
        expect(json.message).toBe(`No route for ${method} ${p}`);
      }
    }
  });
});

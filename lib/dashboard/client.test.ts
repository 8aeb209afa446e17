// The browser's client of the dashboard's endpoints (lib/dashboard/client.ts): answers come back
// as sent, a refusal throws DashboardApiError with its code and message, and no page or
// component fetches an /api/dashboard endpoint around it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DashboardApiError, dashboardApi } from "./client";

const calls: { url: string; init?: RequestInit }[] = [];
let answer: () => Promise<Response>;
vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
  calls.push({ url, init });
  return answer();
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  calls.length = 0;
});

describe("dashboardApi", () => {
  it("a GET names the endpoint under /api/dashboard and answers its envelope's data", async () => {
    answer = async () => Response.json({ success: true, data: { unread: 3 } });
    expect(await dashboardApi.unread("+1 555")).toEqual({ unread: 3 });
    expect(calls).toEqual([{ url: "/api/dashboard/conversations/unread?sender=%2B1%20555", init: { method: "GET" } }]);
  });

  it("a POST sends JSON (a prepared JSON text as it is)", async () => {
    answer = async () => Response.json({ note: { noteUid: "n" } }, { status: 201 });
    await dashboardApi.addNote("conv/1", "hello");
    await dashboardApi.segmentCount('{"rules":{}}');
    expect(calls.map((c) => [c.url, c.init?.method, c.init?.body])).toEqual([
      ["/api/dashboard/conversations/conv%2F1/notes", "POST", '{"note":{"text":"hello"}}'],
      ["/api/dashboard/segments/count", "POST", '{"rules":{}}'],
    ]);
    expect(calls[0]?.init?.headers).toEqual({ "Content-Type": "application/json" });
  });

  it("a refusal throws DashboardApiError with its status, error_code, message and details", async () => {
    answer = async () =>
      Response.json(
        { success: false, message: "Sign in to continue", error_code: "UNAUTHORIZED", details: { a: 1 } },
        { status: 401 },
      );
    const error = await dashboardApi.notes("c").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DashboardApiError);
    expect(error).toMatchObject({
      status: 401,
      code: "UNAUTHORIZED",
      message: "Sign in to continue",
      details: { a: 1 },
    });
  });

  it("an answer without a message (a proxy's page) or no answer at all says the endpoint's own words", async () => {
    answer = async () => new Response("<html>Bad gateway</html>", { status: 502 });
    await expect(dashboardApi.inbox("")).rejects.toMatchObject({
      status: 502,
      code: "REQUEST_FAILED",
      message: "Could not load conversations",
    });
    answer = async () => {
      throw new TypeError("Failed to fetch");
    };
    await expect(dashboardApi.messages("+1")).rejects.toMatchObject({
      code: "NETWORK_ERROR",
      message: "Could not load messages",
    });
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A fetch of a dashboard endpoint written out (the client's own is the one allowed). */
const OWN_FETCH = /fetch\(\s*[`"']\/api\/dashboard/;

describe("every dashboard fetch goes through the client", () => {
  it("finds a hand-written fetch (the check is not blind)", () => {
    expect("await fetch(`/api/dashboard/x/` + id)".match(OWN_FETCH)).not.toBeNull();
    expect("dashboardApi.notes(uid)".match(OWN_FETCH)).toBeNull();
  });

  it("no page or component fetches /api/dashboard itself", () => {
    const found = ["app", "components"]
      .flatMap(sourceFiles)
      .filter((file) => !file.startsWith(join("app", "api")) && OWN_FETCH.test(readFileSync(file, "utf8")));
    expect(found, "call it through dashboardApi (lib/dashboard/client.ts)").toEqual([]);
  });
});

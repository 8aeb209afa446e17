// Token fallbacks in query strings (and token-named fields) never reach a log line.
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ok, route } from "@/lib/api/route-definition";
import { createRouter } from "@/lib/api/router";
import { redactUrl } from "@/lib/core/log";
import { createTestCustomer, type TestCustomer } from "./factory";
import { callWith } from "./router-call";

const captured = vi.hoisted(() => ({ lines: [] as string[] }));

// The real logger (same redaction), writing where the test can read it.
vi.mock("@/lib/core/log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/core/log")>();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      captured.lines.push(String(chunk));
      done();
    },
  });
  return { ...actual, log: actual.createLogger(sink, "info") };
});

const handle = createRouter([
  route({
    method: "GET",
    path: "/boom",
    versions: ["v2", "v3"],
    summary: "Fails",
    tag: "Test",
    limit: "global",
    handler: async ({ request }) => {
      // An error that carries request data in token-named fields.
      const url = new URL(request.url);
      throw Object.assign(new Error("downstream failed"), {
        token: url.searchParams.get("token"),
        details: { authToken: url.searchParams.get("authToken") },
      });
    },
  }),
  route({
    method: "GET",
    path: "/fine",
    versions: ["v2", "v3"],
    summary: "Works",
    tag: "Test",
    limit: "global",
    handler: async () => ok("Fine", {}),
  }),
]);

let c: TestCustomer;
beforeAll(async () => {
  c = await createTestCustomer();
});

describe("log redaction", () => {
  it.each(["authToken", "auth_token", "token"])("a 500 with ?%s= logs the request without the token", async (field) => {
    captured.lines.length = 0;
    const res = await callWith(handle, "GET", "/api/v3/boom", {
      query: { [field]: c.globalToken, page: "2" },
    });
    expect(res.status).toBe(500);
    await new Promise((r) => setImmediate(r));
    const output = captured.lines.join("");
    expect(output).toContain("unhandled API error");
    expect(output).toContain(res.body.metadata.requestId);
    expect(output).toContain("/api/v3/boom");
    expect(output).toContain("page=2");
    expect(output).toContain("redacted");
    expect(output).not.toContain(c.globalToken);
    // The secret part alone, in case some encoding changed the prefix.
    expect(output).not.toContain(c.globalToken.slice(12));
  });

  it("a token in the Authorization header is never logged either", async () => {
    captured.lines.length = 0;
    const res = await callWith(handle, "GET", "/api/v2/boom", { token: c.globalToken });
    expect(res.status).toBe(500);
    await new Promise((r) => setImmediate(r));
    expect(captured.lines.join("")).not.toContain(c.globalToken.slice(12));
  });

  it("redactUrl keeps the path and other parameters", () => {
    expect(redactUrl("http://h/api/v3/x?authToken=swb_live_a&b=1&token=t&auth_token=u")).toBe(
      "/api/v3/x?authToken=%5Bredacted%5D&b=1&token=%5Bredacted%5D&auth_token=%5Bredacted%5D",
    );
    expect(redactUrl("http://h/api/v3/x?auth%54oken=secret")).not.toContain("secret");
    expect(redactUrl("http://h/api/v3/x?token=a&token=b")).not.toMatch(/=a|=b/);
  });
});

describe("scrubSecrets", () => {
  it("masks token and signing-secret shapes anywhere in a line", async () => {
    const { scrubSecrets } = await vi.importActual<typeof import("@/lib/core/log")>("@/lib/core/log");
    const line = `{"msg":"failed for swb_live_AbCdEfGh1234567890","err":{"stack":"x whsec_QUJDREVGR0hJSktMTU5PUA== y"}}`;
    expect(scrubSecrets(line)).toBe(`{"msg":"failed for swb_live_[redacted]","err":{"stack":"x whsec_[redacted] y"}}`);
  });
});

// Bounded input at the router: the rate limit and
// authentication come before a body is read, a route's larger limit needs a verified
// token, nesting is capped and text the database cannot store is refused naming its field.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { MAX_INPUT_DEPTH } from "@/lib/core/storable-input";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { callWith, randomIp } from "@/test/router-call";
import { ok, route } from "./route-definition";
import { createRouter } from "./router";

const both = ["v2", "v3"] as const;
const seen = vi.fn();
const BIG = 64 * 1024;

const table = [
  route({
    method: "POST",
    path: "/things",
    versions: both,
    summary: "Create a thing",
    tag: "Test",
    limit: "global",
    body: z.object({ name: z.string().min(1), tags: z.record(z.string(), z.unknown()).optional() }),
    handler: async ({ body }) => {
      seen(body);
      return ok("Created", {});
    },
  }),
  route({
    method: "POST",
    path: "/rows",
    versions: both,
    summary: "Rows checked one by one",
    tag: "Test",
    limit: "global",
    bodyLimitBytes: BIG,
    textCheckedPerRow: "rows",
    body: z.object({ rows: z.array(z.unknown()) }),
    handler: async ({ body }) => {
      seen(body);
      return ok("Rows", { received: body.rows.length });
    },
  }),
];

const handle = createRouter(table);
const call = (method: string, path: string, options: Parameters<typeof callWith>[3] = {}) =>
  callWith(handle, method, path, options);

let c: TestCustomer;
beforeAll(async () => {
  c = await createTestCustomer();
});
afterEach(() => {
  seen.mockClear();
  vi.restoreAllMocks();
});

/** A body that counts what the router pulled from it. */
function countingBody(total: number, chunk = 16 * 1024) {
  const state = { pulled: 0 };
  const piece = new TextEncoder().encode(`{"name":"${"x".repeat(chunk)}`);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= total) return controller.close();
        state.pulled += piece.byteLength;
        controller.enqueue(piece);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function streamed(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
    // @ts-expect-error Node's fetch needs duplex for streamed bodies
    duplex: "half",
  });
}

describe("the body is read after the rate limit and authentication", () => {
  it("a rate-limited request with a bearer token is refused without reading its body", async () => {
    const limited = createRouter(table, {
      rateLimiter: {
        consume: async () => {
          throw new ApiError("RATE_LIMITED", "Too many requests", {}, { "Retry-After": "60" });
        },
      },
    });
    const { stream, state } = countingBody(10 * 1024 * 1024);
    const res = await limited(streamed("/api/v3/things", stream, { Authorization: `Bearer ${c.globalToken}` }));
    expect(res.status).toBe(429);
    expect(state.pulled).toBe(0);
  });

  it("a wrong bearer token gets 401 without its body being read", async () => {
    const { stream, state } = countingBody(10 * 1024 * 1024);
    const res = await handle(streamed("/api/v3/rows", stream, { Authorization: "Bearer not-a-real-token" }), {
      clientIp: randomIp(),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: "INVALID_AUTH_TOKEN" });
    expect(state.pulled).toBe(0);
  });

  it("a route's larger limit needs a verified token; any Bearer string no longer unlocks it", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ n: `${i}`.padStart(200, "0") }));
    const text = JSON.stringify({ rows });
    expect(text.length).toBeGreaterThan(1024);
    expect(text.length).toBeLessThan(BIG);
    process.env.API_BODY_LIMIT_BYTES = "1024";
    const { resetEnvCache } = await import("@/lib/core/env");
    resetEnvCache();
    try {
      // Token in the body: the body is read before authentication, at the default limit.
      const inBody = await call("POST", "/api/v3/rows", { body: { authToken: c.globalToken, rows } });
      expect(inBody.status).toBe(413);
      const verified = await call("POST", "/api/v3/rows", { token: c.globalToken, body: { rows } });
      expect(verified.status).toBe(200);
      // A chunked body over the larger limit is cut off while it streams.
      const { stream, state } = countingBody(10 * 1024 * 1024);
      const res = await handle(streamed("/api/v3/rows", stream, { Authorization: `Bearer ${c.globalToken}` }), {
        clientIp: randomIp(),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error_code: "PAYLOAD_TOO_LARGE", details: { limitBytes: BIG } });
      expect(state.pulled).toBeLessThan(BIG + 32 * 1024);
    } finally {
      delete process.env.API_BODY_LIMIT_BYTES;
      resetEnvCache();
    }
  });

  it("a Content-Length that understates the body does not lift the limit", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    const { stream, state } = countingBody(big.length);
    const res = await handle(
      streamed("/api/v3/things", stream, { Authorization: `Bearer ${c.globalToken}`, "Content-Length": "10" }),
      { clientIp: randomIp() },
    );
    expect(res.status).toBe(413);
    expect(state.pulled).toBeLessThan(1_048_576 + 32 * 1024);
  });
});

describe("JSON nesting is capped", () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  it.each([10_000, 100_000])("%i levels deep: VALIDATION_FAILED, never a 5xx or a logged stack", async (depth) => {
    const error = vi.spyOn(log, "error");
    for (const token of [undefined, c.globalToken]) {
      const res = await call("POST", "/api/v3/things", {
        token,
        rawBody: nested(depth),
        headers: { "Content-Type": "application/json" },
      });
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(400);
      expect(res.body).toMatchObject({ error_code: "VALIDATION_FAILED" });
      expect(res.body.message).toContain(`nested deeper than ${MAX_INPUT_DEPTH} levels`);
    }
    // In an array too, and with the token in the body.
    const arrays = `{"authToken":"${c.globalToken}","name":"x","tags":{"t":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
    const res = await call("POST", "/api/v3/things", {
      rawBody: arrays,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(error).not.toHaveBeenCalled();
    expect(seen).not.toHaveBeenCalled();
  });

  it("nesting up to the cap is accepted", async () => {
    const inner = `${'{"a":'.repeat(MAX_INPUT_DEPTH - 2)}1${"}".repeat(MAX_INPUT_DEPTH - 2)}`;
    const res = await call("POST", "/api/v3/things", {
      token: c.globalToken,
      rawBody: `{"name":"x","tags":${inner}}`,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe("text the database cannot store", () => {
  it.each([
    ["a lone high surrogate", '{"name":"a\\ud800b"}', "body.name"],
    ["a lone low surrogate", '{"name":"\\udc00"}', "body.name"],
    ["a NUL", '{"name":"a\\u0000"}', "body.name"],
    ["a surrogate deep in an object", '{"name":"x","tags":{"k":["ok","\\ud83d"]}}', "body.tags.k.1"],
    ["a surrogate in a key", '{"name":"x","tags":{"\\udfff":1}}', "body.tags.\udfff"],
  ])("%s is VALIDATION_FAILED naming the field", async (_what, rawBody, path) => {
    const res = await call("POST", "/api/v3/things", {
      token: c.globalToken,
      rawBody,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields[0].path).toBe(path);
    expect(seen).not.toHaveBeenCalled();
  });

  it("a valid surrogate pair (an emoji) is fine", async () => {
    const res = await call("POST", "/api/v3/things", {
      token: c.globalToken,
      rawBody: '{"name":"\\ud83d\\ude00"}',
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(seen).toHaveBeenCalledWith({ name: "😀" });
  });

  it("rows a route checks one by one reach it; the rest of the body is still checked", async () => {
    const rows = await call("POST", "/api/v3/rows", {
      token: c.globalToken,
      rawBody: '{"rows":[{"n":"\\ud800"},{"n":"ok"}]}',
      headers: { "Content-Type": "application/json" },
    });
    expect(rows.status).toBe(200);
    const outside = await call("POST", "/api/v3/rows", {
      token: c.globalToken,
      rawBody: '{"rows":[],"x":"\\ud800"}',
      headers: { "Content-Type": "application/json" },
    });
    expect(outside.status).toBe(400);
    expect(outside.body.details.fields[0].path).toBe("body.x");
  });
});

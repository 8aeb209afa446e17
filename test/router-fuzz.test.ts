// Property-based bad input at the real router: whatever arrives (methods, paths under
// /api/v2 and /api/v3, query strings, headers, bodies, valid tokens included), the
// answer is never a 5xx and every failure carries the error envelope.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { routes } from "@/lib/api/route-table";
import { handleApiRequest } from "@/lib/api/router";
import { generateTokenString } from "@/lib/domains/tokens/token-string";
import { createTestCustomer, type TestCustomer } from "./factory";
import { randomIp, readResult } from "./router-call";

let c: TestCustomer;
let starter: TestCustomer;
beforeAll(async () => {
  c = await createTestCustomer();
  starter = await createTestCustomer({ plan: "starter" });
});

const oddText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("", " ", "%", "%00", "%E0%A4%A", "..", "null", "-1", "0", "1e400", "NaN", "+15551234567", "true"),
);
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e21));
const scalar = fc.oneof(oddText, number.map(String));

// A route of the table with parameters filled with odd values, or random segments.
const knownPath = fc
  .tuple(fc.constantFrom(...routes.map((r) => r.path)), fc.array(oddText, { minLength: 3, maxLength: 3 }))
  .map(([path, fills]) => {
    let i = 0;
    return path.replace(/:[A-Za-z0-9_]+/g, () => encodeURIComponent(fills[i++ % 3] || "x"));
  });
const randomPath = fc
  .array(
    fc.oneof(oddText.map(encodeURIComponent), fc.constantFrom("webhooks", "billing", "contact-books", "%2F", "")),
    {
      maxLength: 5,
    },
  )
  .map((segments) => `/${segments.join("/")}`);

const queryKeys = fc.constantFrom(
  "page",
  "limit",
  "senderId",
  "phoneNumberId",
  "status",
  "search",
  "event",
  "dateFrom",
  "dateTo",
  "sortBy",
  "sortOrder",
  "billable",
  "templateType",
  "authToken",
  "token",
  "q",
);
const query = fc.dictionary(fc.oneof(queryKeys, fc.string({ maxLength: 6 })), scalar, { maxKeys: 5 });

const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "application/json; charset=utf-8",
  "application/vnd.api+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
  "json",
);

// Bodies shaped like the API's (so validation goes deep), and plain junk.
const plausible = fc.record(
  {
    senderId: scalar,
    webhook: fc.dictionary(
      fc.constantFrom(
        "name",
        "endpointUrl",
        "events",
        "status",
        "timeoutMs",
        "retryEnabled",
        "retryMaxAttempts",
        "verificationToken",
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    contactBook: fc.dictionary(
      fc.constantFrom("name", "description", "color", "status"),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    contacts: fc.array(
      fc.dictionary(fc.constantFrom("phoneNumber", "name", "email", "customFields"), fc.jsonValue({ maxDepth: 2 })),
      { maxLength: 3 },
    ),
    to: scalar,
    type: fc.constantFrom("text", "template", "image", "bogus"),
    text: fc.jsonValue({ maxDepth: 2 }),
    template: fc.jsonValue({ maxDepth: 2 }),
    category: scalar,
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.constant(undefined),
  plausible.map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
  fc.constantFrom("{", '{"a":', "[", "\u0000", '{"authToken": 5}', "null"),
);

type TokenPlace = "header" | "query" | "body" | "none";
const token = fc.record({
  which: fc.constantFrom("global", "scoped", "starter", "wrong", "garbage"),
  place: fc.constantFrom<TokenPlace>("header", "query", "body", "none"),
});

const request = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
  version: fc.constantFrom("v2", "v3"),
  path: fc.oneof(knownPath, randomPath),
  query,
  contentType,
  body,
  token,
  forwardedFor: fc.option(oddText, { nil: undefined }),
});

function tokenValue(which: string): string {
  if (which === "global") return c.globalToken;
  if (which === "scoped") return c.scopedToken;
  if (which === "starter") return starter.globalToken;
  if (which === "wrong") return generateTokenString();
  return "garbage token";
}

describe("router fuzz", () => {
  it("never answers 5xx; every failure has the envelope and the request id", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const url = new URL(`http://localhost/api/${r.version}${r.path}`);
        for (const [k, v] of Object.entries(r.query)) url.searchParams.set(k, v);
        const headers = new Headers();
        if (r.contentType !== undefined) headers.set("content-type", r.contentType);
        if (r.forwardedFor !== undefined) headers.set("x-forwarded-for", r.forwardedFor.replace(/[^\x20-\x7e]/g, ""));
        const tok = tokenValue(r.token.which);
        if (r.token.place === "header") headers.set("authorization", `Bearer ${tok}`);
        if (r.token.place === "query") url.searchParams.set("authToken", tok);
        let text = r.body;
        if (r.token.place === "body") text = JSON.stringify({ ...(text ? safeObject(text) : {}), authToken: tok });
        const hasBody = r.method !== "GET" && r.method !== "HEAD" && text !== undefined;
        const res = await readResult(
          await handleApiRequest(new Request(url, { method: r.method, headers, body: hasBody ? text : undefined }), {
            clientIp: randomIp(),
          }),
        );
        const what = `${r.method} ${url.pathname}${url.search} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        const requestId = res.headers.get("x-service-request-id");
        expect(requestId, what).toMatch(/^req_[0-9a-f]{24}$/);
        if (r.method === "HEAD") return;
        if (res.status >= 400) {
          const b = res.body;
          if (b?.error) {
            // Provider-compatible routes answer in the provider's shape.
            expect(b.error.fbtrace_id, what).toBe(requestId);
            expect(typeof b.error.error_data?.error_code, what).toBe("string");
          } else {
            expect(b, what).toMatchObject({
              success: false,
              error_code: expect.any(String),
              details: expect.any(Object),
            });
            expect(typeof b.message, what).toBe("string");
            // ".." may climb out of the prefix: outside /api/v2 the answer speaks v3.
            const version = /^\/api\/v2(\/|$)/.test(url.pathname) ? "v2" : "v3";
            expect(b.metadata, what).toMatchObject({ apiVersion: version, requestId });
          }
        } else if (res.body?.openapi === undefined) {
          expect(res.body?.success, what).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});

function safeObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

describe("a NUL byte in a path parameter", () => {
  // PostgreSQL text cannot hold U+0000: every route answers what it answers for an id that
  // does not exist (its own not-found code), never a 5xx.
  const withParams = routes.filter((r) => r.path.includes("/:"));
  const ask = async (method: string, url: string) =>
    readResult(
      await handleApiRequest(
        new Request(`http://localhost${url}`, {
          method,
          headers: { Authorization: `Bearer ${c.globalToken}`, "Content-Type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        }),
        { clientIp: randomIp() },
      ),
    );
  it.each(withParams.map((r) => [r.method, r.path, r.versions] as const))("%s %s", async (method, path, versions) => {
    for (const version of versions) {
      const url = (fill: string) => `/api/${version}${path.replace(/:[A-Za-z0-9_]+/g, fill)}`;
      const nul = await ask(method, url("a%00b"));
      expect(nul.status, `${method} ${url("a%00b")}: ${JSON.stringify(nul.body)}`).toBeLessThan(500);
      const missing = await ask(method, url("doesnotexist1"));
      if (missing.status === 404)
        expect(nul.body.error_code, `${method} ${url("a%00b")}`).toBe(missing.body.error_code);
      else expect(nul.status, `${method} ${url("a%00b")}`).toBeGreaterThanOrEqual(400);
    }
  });
});

// Hostile input: deep nesting, text the database cannot store and huge chunked bodies, sent to
// every route of the table on every version it exists on: never a 5xx, the bad field named.
describe("hostile input on every route of the table", () => {
  const cases = routes.flatMap((r) => r.versions.map((version) => [r.method, r.path, version] as const));
  // A phone number id is digits (any other text is no route), as is the provider's node id
  // (/{id}: a phone number id or a media id); other ids name nothing.
  const fill = (path: string) =>
    path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
      name === "phoneNumberId" || name === "id" ? "100000000000001" : "doesnotexist1",
    );
  const CHUNK = 256 * 1024;

  /** The error_code and message, from the envelope or the provider-shaped body. */
  const errorOf = (body: {
    error_code?: string;
    message?: string;
    error?: { message: string; error_data: { error_code: string } };
  }) =>
    body.error
      ? { code: body.error.error_data.error_code, message: body.error.message }
      : { code: body.error_code, message: body.message };

  function hugeChunked() {
    const state = { pulled: 0 };
    const chunk = new TextEncoder().encode(`{"x":"${"y".repeat(CHUNK)}`);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (state.pulled >= 256 * 1024 * 1024) return controller.close();
          state.pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, state };
  }

  const send = async (method: string, url: string, body?: BodyInit, headers: Record<string, string> = {}) =>
    readResult(
      await handleApiRequest(
        new Request(`http://localhost${url}`, {
          method,
          headers: { "Content-Type": "application/json", ...headers },
          body,
          // @ts-expect-error Node's fetch needs duplex for streamed bodies
          duplex: "half",
        }),
        { clientIp: randomIp() },
      ),
    );

  /**
   * An upload (multipart/form-data, docs/openapi.md "Uploads"): JSON is refused for its type, a
   * body that is not multipart as it claims, a field with a NUL byte, and an endless image.
   */
  async function hostileUploads(
    url: string,
    auth: Record<string, string>,
    what: (label: string, res: { status: number; body: unknown }) => string,
  ) {
    const deep = `{"probe":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const json = await send("POST", url, deep, auth);
    expect(json.status, what("JSON to an upload", json)).toBe(415);
    const multipart = (boundary: string) => ({ ...auth, "Content-Type": `multipart/form-data; boundary=${boundary}` });
    const garbage = await send("POST", url, "--x\r\nnot a part\r\n", multipart("x"));
    expect(garbage.status, what("malformed multipart", garbage)).toBe(400);
    expect(errorOf(garbage.body).code, what("malformed multipart", garbage)).toBe("VALIDATION_FAILED");
    const nul = `--x\r\nContent-Disposition: form-data; name="probe"\r\n\r\na\u0000b\r\n--x--\r\n`;
    const withNul = await send("POST", url, nul, multipart("x"));
    expect(withNul.status, what("NUL in a field", withNul)).toBe(400);
    expect(errorOf(withNul.body).message, what("NUL in a field", withNul)).toContain("body.probe");
    // An image part that never ends: refused at the image limit (5 MB), read no further.
    const head = new TextEncoder().encode(
      `--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const junk = new Uint8Array(CHUNK);
    const state = { pulled: 0 };
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (state.pulled >= 256 * 1024 * 1024) return controller.close();
          const chunk = state.pulled === 0 ? new Uint8Array([...head, ...png, ...junk]) : junk;
          state.pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const huge = await send("POST", url, endless, multipart("x"));
    expect(huge.status, what("endless image", huge)).toBe(413);
    expect(errorOf(huge.body).code, what("endless image", huge)).toBe("MEDIA_TOO_LARGE");
    expect(state.pulled, what("endless image", huge)).toBeLessThanOrEqual(5_000_000 + 4 * CHUNK);
  }

  it.each(cases)("%s %s on %s", async (method, path, version) => {
    const url = `/api/${version}${fill(path)}`;
    const auth = { Authorization: `Bearer ${c.globalToken}` };
    const what = (label: string, res: { status: number; body: unknown }) =>
      `${label}: ${method} ${url} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;

    if (method === "GET" || method === "DELETE") {
      // A GET or DELETE has no body: its query is the input (a lone surrogate cannot survive URL decoding).
      const res = await send(method, `${url}?probe=a%00b`, undefined, auth);
      expect(res.status, what("NUL in query", res)).toBeLessThan(500);
      if (path !== "/openapi.json") {
        expect(errorOf(res.body).code, what("NUL in query", res)).toBe("VALIDATION_FAILED");
        expect(errorOf(res.body).message, what("NUL in query", res)).toContain("query.probe");
      }
      return;
    }

    if (routes.find((r) => r.method === method && r.path === path)?.upload) {
      // An upload is read only for a sender the account has: the phone number id of its own.
      const own = `/api/${version}${path.replace(":phoneNumberId", c.sender.phoneNumberId ?? "")}`;
      await hostileUploads(own, auth, what);
      return;
    }

    const deep = `{"probe":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    for (const headers of [auth, {}]) {
      const res = await send("POST", url, deep, headers);
      expect(res.status, what("deep nesting", res)).toBe(400);
      expect(errorOf(res.body).code, what("deep nesting", res)).toBe("VALIDATION_FAILED");
    }

    for (const text of ['"a\\ud800b"', '"\\udfff"', '"a\\u0000"']) {
      const res = await send("POST", url, `{"probe":{"field":${text}}}`, auth);
      expect(res.status, what(`text ${text}`, res)).toBe(400);
      expect(errorOf(res.body).code, what(`text ${text}`, res)).toBe("VALIDATION_FAILED");
      expect(errorOf(res.body).message, what(`text ${text}`, res)).toContain("body.probe.field");
      if (!res.body.error) expect(res.body.details.fields[0].path).toBe("body.probe.field");
    }
    // With the token in the body (read before authentication) too.
    const inBody = await send("POST", url, `{"authToken":"${c.globalToken}","probe":"\\ud800"}`);
    expect(inBody.status, what("surrogate, token in body", inBody)).toBe(400);

    const { stream, state } = hugeChunked();
    const huge = await send("POST", url, stream, auth);
    expect(huge.status, what("256 MiB chunked", huge)).toBe(413);
    expect(state.pulled, what("256 MiB chunked", huge)).toBeLessThanOrEqual(10 * 1024 * 1024 + 2 * CHUNK);
  });
});

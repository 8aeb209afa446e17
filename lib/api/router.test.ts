// The router on a test-only table: everything it does once for every route, without
// depending on the domain routes.
import { afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { z } from "zod";
import { resetEnvCache } from "@/lib/core/env";
import { PageQuery } from "@/lib/core/pagination";
import { PathText, PublicId } from "@/lib/core/path-params";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { issueToken, revokeToken } from "@/lib/domains/tokens/service";
import { generateTokenString, hashToken, visiblePrefix } from "@/lib/domains/tokens/token-string";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { callWith } from "@/test/router-call";
import { tokenChangesPropagated } from "@/test/token-propagation";
import { ok, route } from "./route-definition";
import { createRouter } from "./router";

const both = ["v2", "v3"] as const;
const seen = vi.fn();

const table = [
  route({
    method: "GET",
    path: "/things",
    versions: both,
    summary: "List things",
    tag: "Test",
    limit: "global",
    query: PageQuery.extend({ q: z.string().optional() }).strict(),
    handler: async ({ query }) => {
      seen(query);
      return ok("Things", { query });
    },
  }),
  route({
    method: "POST",
    path: "/things",
    versions: both,
    summary: "Create a thing",
    tag: "Test",
    limit: "global",
    body: z.object({ name: z.string().min(1), senderId: z.string().optional() }).strict(),
    handler: async ({ body }) => {
      seen(body);
      return ok("Created", { body });
    },
  }),
  route({
    method: "GET",
    path: "/things/events",
    versions: both,
    summary: "Static beside a parameter",
    tag: "Test",
    limit: "global",
    handler: async () => ok("Events", { kind: "static" }),
  }),
  route({
    method: "GET",
    path: "/things/:id",
    params: { id: PathText },
    versions: both,
    summary: "Get a thing",
    tag: "Test",
    limit: "global",
    handler: async ({ params }) => ok("Thing", { params }),
  }),
  route({
    method: "POST",
    path: "/things/:id",
    params: { id: PathText },
    versions: both,
    summary: "Update a thing",
    tag: "Test",
    limit: "global",
    handler: async ({ params }) => ok("Updated", { params }),
  }),
  route({
    method: "GET",
    path: "/parts/:partId",
    versions: both,
    summary: "A part, by an id of a declared shape",
    tag: "Test",
    limit: "global",
    params: { partId: PublicId },
    paramNotFound: { partId: "WEBHOOK_NOT_FOUND" },
    handler: async ({ params }) => {
      seen(params);
      return ok("Part", { partId: params.partId });
    },
  }),
  route({
    method: "GET",
    path: "/global-only",
    versions: both,
    summary: "Needs a global token",
    tag: "Test",
    tokenScope: "global",
    limit: "global",
    handler: async () => ok("Global", {}),
  }),
  route({
    method: "GET",
    path: "/hooks",
    versions: both,
    summary: "Needs the webhooks feature",
    tag: "Test",
    feature: "webhooks",
    limit: "global",
    handler: async () => ok("Hooks", {}),
  }),
  route({
    method: "GET",
    path: "/sender",
    versions: both,
    summary: "Resolves a sender",
    tag: "Test",
    sender: "resolve",
    limit: "global",
    handler: async ({ sender }) => ok("Sender", { phoneNumber: sender?.phoneNumber ?? null }),
  }),
  route({
    method: "GET",
    path: "/v3-only",
    versions: ["v3"],
    summary: "Exists on v3 only",
    tag: "Test",
    limit: "global",
    handler: async () => ok("V3", {}),
  }),
  route({
    method: "POST",
    path: "/send",
    versions: both,
    summary: "A send-class route",
    tag: "Test",
    limit: "send",
    handler: async () => ok("Sent", {}),
  }),
  route({
    method: "GET",
    path: "/reports/things",
    versions: both,
    summary: "A reports-class route",
    tag: "Test",
    limit: "reports",
    handler: async () => ok("Report", {}),
  }),
  route({
    method: "GET",
    path: "/boom",
    versions: both,
    summary: "Fails unexpectedly",
    tag: "Test",
    limit: "global",
    handler: async () => {
      throw new Error("connection to db-internal.local:5432 failed for user admin");
    },
  }),
  route({
    method: "GET",
    path: "/public",
    versions: both,
    summary: "No token needed",
    tag: "Test",
    auth: "public",
    limit: "global",
    handler: async () => ok("Public", {}),
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
});

function expectError(res: { status: number; body: Record<string, unknown> }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, error_code: code });
  expect(typeof res.body.message).toBe("string");
}

describe("authentication", () => {
  it("401 MISSING_AUTH_TOKEN without any token, with details {}", async () => {
    const res = await call("GET", "/api/v3/things");
    expectError(res, 401, "MISSING_AUTH_TOKEN");
    expect(res.body.details).toEqual({});
    expect(seen).not.toHaveBeenCalled();
  });

  it("401 INVALID_AUTH_TOKEN for a wrong token, well-formed or not", async () => {
    for (const token of [generateTokenString(), "not-a-token", `${c.globalToken}x`]) {
      expectError(await call("GET", "/api/v3/things", { token }), 401, "INVALID_AUTH_TOKEN");
    }
  });

  it("401 INVALID_AUTH_TOKEN for a revoked token", async () => {
    const { token, record } = await issueToken({ customerId: c.customer.id, name: "to revoke" });
    expect((await call("GET", "/api/v3/things", { token })).status).toBe(200);
    await revokeToken(systemPrincipal(c.customer.id), record.id);
    expectError(await call("GET", "/api/v3/things", { token }), 401, "INVALID_AUTH_TOKEN");
  });

  it("401 INVALID_AUTH_TOKEN for an expired token", async () => {
    const { token } = await issueToken({
      customerId: c.customer.id,
      name: "expired",
      expiresAt: new Date(Date.now() - 1000),
    });
    expectError(await call("GET", "/api/v3/things", { token }), 401, "INVALID_AUTH_TOKEN");
    const { token: later } = await issueToken({
      customerId: c.customer.id,
      name: "not yet",
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await call("GET", "/api/v3/things", { token: later })).status).toBe(200);
  });

  it("401 INVALID_AUTH_TOKEN when the customer is suspended", async () => {
    const s = await createTestCustomer();
    expect((await call("GET", "/api/v3/things", { token: s.globalToken })).status).toBe(200);
    await db.customer.update({ where: { id: s.customer.id }, data: { status: "SUSPENDED" } });
    await tokenChangesPropagated(); // a direct update reaches the token cache by NOTIFY
    expectError(await call("GET", "/api/v3/things", { token: s.globalToken }), 401, "INVALID_AUTH_TOKEN");
  });

  it("403 CUSTOMER_TOKEN_REQUIRED for a token of no customer account", async () => {
    const token = generateTokenString();
    await db.apiToken.create({
      data: {
        kind: "OPERATOR",
        customerId: null,
        name: "operator",
        prefix: visiblePrefix(token),
        hash: hashToken(token),
      },
    });
    expectError(await call("GET", "/api/v3/things", { token }), 403, "CUSTOMER_TOKEN_REQUIRED");
  });

  it("403 TOKEN_SCOPE_NOT_ALLOWED for a number-scoped token on a global-only route", async () => {
    expectError(await call("GET", "/api/v2/global-only", { token: c.scopedToken }), 403, "TOKEN_SCOPE_NOT_ALLOWED");
    expect((await call("GET", "/api/v2/global-only", { token: c.globalToken })).status).toBe(200);
  });

  it("403 FEATURE_NOT_AVAILABLE when the plan lacks the feature", async () => {
    const starter = await createTestCustomer({ plan: "starter" });
    const res = await call("GET", "/api/v3/hooks", { token: starter.globalToken });
    expectError(res, 403, "FEATURE_NOT_AVAILABLE");
    expect(res.body.details).toEqual({ feature: "webhooks" });
    expect((await call("GET", "/api/v3/hooks", { token: c.globalToken })).status).toBe(200);
  });

  it("a public route needs no token", async () => {
    const res = await call("GET", "/api/v3/public");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });
});

describe("sender resolution", () => {
  it("404 SENDER_NOT_FOUND for a sender not connected to this customer", async () => {
    expectError(
      await call("GET", "/api/v3/sender", { token: c.globalToken, query: { senderId: "+19990000001" } }),
      404,
      "SENDER_NOT_FOUND",
    );
    const other = await createTestCustomer();
    expectError(
      await call("GET", "/api/v3/sender", { token: c.globalToken, query: { senderId: other.sender.phoneNumber } }),
      404,
      "SENDER_NOT_FOUND",
    );
  });

  it("404 SENDER_NOT_FOUND, not a 5xx, for a senderId that is not a phone number", async () => {
    for (const senderId of ["abc", "+", "+1555abc0001"]) {
      expectError(
        await call("GET", "/api/v3/sender", { token: c.globalToken, query: { senderId } }),
        404,
        "SENDER_NOT_FOUND",
      );
    }
  });

  it("400 VALIDATION_FAILED, not a 5xx, for a NUL byte in a query or body", async () => {
    const query = { senderId: "+1555\u00000001" };
    expectError(await call("GET", "/api/v3/sender", { token: c.globalToken, query }), 400, "VALIDATION_FAILED");
    const body = { name: "a\u0000b" };
    expectError(await call("POST", "/api/v3/things", { token: c.globalToken, body }), 400, "VALIDATION_FAILED");
    expect(seen).not.toHaveBeenCalledWith(body);
  });

  it("400 WHATSAPP_SETUP_INCOMPLETE for a sender without a phone number id", async () => {
    const res = await call("GET", "/api/v3/sender", {
      token: c.globalToken,
      query: { senderId: c.incompleteSender.phoneNumber },
    });
    expectError(res, 400, "WHATSAPP_SETUP_INCOMPLETE");
    expect(res.headers.get("x-service-phone-number-id")).toBeNull();
  });

  it("X-Service-Phone-Number-Id names the resolved sender, and only when one was resolved", async () => {
    const byDefault = await call("GET", "/api/v3/sender", { token: c.globalToken });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.data.phoneNumber).toBe(c.sender.phoneNumber);
    expect(byDefault.headers.get("x-service-phone-number-id")).toBe(c.sender.phoneNumberId);

    const explicit = await call("GET", "/api/v2/sender", {
      token: c.globalToken,
      query: { senderId: c.otherSender.phoneNumber },
    });
    expect(explicit.headers.get("x-service-phone-number-id")).toBe(c.otherSender.phoneNumberId);

    const scoped = await call("GET", "/api/v3/sender", { token: c.scopedToken });
    expect(scoped.headers.get("x-service-phone-number-id")).toBe(c.sender.phoneNumberId);

    const scopedElsewhere = await call("GET", "/api/v3/sender", {
      token: c.scopedToken,
      query: { senderId: c.otherSender.phoneNumber },
    });
    expectError(scopedElsewhere, 403, "TOKEN_SCOPE_NOT_ALLOWED");

    const none = await call("GET", "/api/v3/things", { token: c.globalToken });
    expect(none.headers.get("x-service-phone-number-id")).toBeNull();
  });
});

describe("token fallbacks", () => {
  it.each(["authToken", "auth_token", "token"])("GET accepts ?%s= and the handler never sees it", async (field) => {
    const res = await call("GET", "/api/v3/things", { query: { [field]: c.globalToken, q: "x" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(seen).toHaveBeenCalledWith({ page: 1, limit: 50, q: "x" });
    expect(JSON.stringify(res.body)).not.toContain(c.globalToken);
  });

  it.each(["authToken", "auth_token", "token"])(
    "POST accepts %s in the JSON body and the handler never sees it",
    async (field) => {
      const res = await call("POST", "/api/v3/things", { body: { [field]: c.globalToken, name: "n" } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(seen).toHaveBeenCalledWith({ name: "n" });
      expect(res.body.data.body).toEqual({ name: "n" });
    },
  );

  it("POST does not take the token from the query string; GET does not read a body", async () => {
    expectError(
      await call("POST", "/api/v3/things", { query: { authToken: c.globalToken }, body: { name: "n" } }),
      401,
      "MISSING_AUTH_TOKEN",
    );
  });

  it("a wrong fallback token is INVALID_AUTH_TOKEN, and the header wins over a fallback", async () => {
    expectError(await call("GET", "/api/v3/things", { query: { token: "nope" } }), 401, "INVALID_AUTH_TOKEN");
    const res = await call("GET", "/api/v3/things", { token: c.globalToken, query: { authToken: "nope" } });
    expect(res.status).toBe(200);
  });
});

describe("envelope and headers", () => {
  it("v3 success: apiVersion v3, processingTimeMs, requestId mirrored in the header", async () => {
    const res = await call("GET", "/api/v3/things", { token: c.globalToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: "Things", data: { query: { page: 1, limit: 50 } } });
    expect(res.body.metadata.apiVersion).toBe("v3");
    expect(res.body.metadata.processingTimeMs).toEqual(expect.any(Number));
    expect(res.body.metadata.processingTimeMs).toBeGreaterThanOrEqual(0);
    expect(res.body.metadata.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("v2 success: apiVersion v2 and no processingTimeMs", async () => {
    const res = await call("GET", "/api/v2/things", { token: c.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.metadata.apiVersion).toBe("v2");
    expect(res.body.metadata).not.toHaveProperty("processingTimeMs");
    expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
  });

  it("errors carry the same metadata per version and the request id header", async () => {
    for (const version of both) {
      const res = await call("GET", `/api/${version}/things`);
      expect(Object.keys(res.body).sort()).toEqual([
        "details",
        "docUrl",
        "error_code",
        "message",
        "metadata",
        "success",
      ]);
      expect(res.body.docUrl).toBe(`/docs/errors#${res.body.error_code.toLowerCase()}`);
      expect(res.body.metadata.apiVersion).toBe(version);
      expect("processingTimeMs" in res.body.metadata).toBe(version === "v3");
      expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
    }
  });

  it("request ids are unique per request", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await call("GET", "/api/v3/public")).body.metadata.requestId);
    expect(ids.size).toBe(5);
  });

  it("HEAD answers a GET route with its status and headers and no body", async () => {
    const res = await call("HEAD", "/api/v3/things", { token: c.globalToken });
    expect(res.status).toBe(200);
    expect(res.body).toBe("");
    expect(res.headers.get("x-service-request-id")).toMatch(/^req_/);
  });
});

describe("routing", () => {
  it("404 NOT_FOUND for unknown routes, outside the prefix too, with the request id", async () => {
    for (const path of ["/api/v3/nope", "/api/v2/things/a/b", "/api/v4/things", "/v3/things", "/api/v3"]) {
      const res = await call("GET", path, { token: c.globalToken });
      expectError(res, 404, "NOT_FOUND");
      expect(res.body.details).toEqual({});
      expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
    }
  });

  it("404 NOT_FOUND for a v3-only route under v2 (even for a method that does not exist)", async () => {
    expect((await call("GET", "/api/v3/v3-only", { token: c.globalToken })).status).toBe(200);
    expectError(await call("GET", "/api/v2/v3-only", { token: c.globalToken }), 404, "NOT_FOUND");
    expectError(await call("DELETE", "/api/v2/v3-only", { token: c.globalToken }), 404, "NOT_FOUND");
  });

  it("405 with Allow and error_code REQUEST_FAILED for a method the path does not have", async () => {
    for (const method of ["DELETE", "PUT", "PATCH", "OPTIONS"]) {
      const res = await call(method, "/api/v3/things", { token: c.globalToken });
      expectError(res, 405, "REQUEST_FAILED");
      expect(res.headers.get("allow")).toBe("GET, POST");
      expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
      // REQUEST_FAILED on the wire, but the docs entry of its own (docs/integrators/errors.md).
      expect(res.body.docUrl).toBe("/docs/errors#method_not_allowed");
    }
    const single = await call("POST", "/api/v2/global-only", { token: c.globalToken });
    expectError(single, 405, "REQUEST_FAILED");
    expect(single.headers.get("allow")).toBe("GET");
  });

  it("a static path wins over a parameter, for the 405 too", async () => {
    const stat = await call("GET", "/api/v3/things/events", { token: c.globalToken });
    expect(stat.body.data).toEqual({ kind: "static" });
    const param = await call("GET", "/api/v3/things/abc%20d", { token: c.globalToken });
    expect(param.body.data).toEqual({ params: { id: "abc d" } });
    const post = await call("POST", "/api/v3/things/events", { token: c.globalToken });
    expectError(post, 405, "REQUEST_FAILED");
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("a malformed percent-encoding in a path parameter is 404, not 500", async () => {
    expectError(await call("GET", "/api/v3/things/%E0%A4%A", { token: c.globalToken }), 404, "NOT_FOUND");
  });
});

describe("path parameters", () => {
  it("are parsed by the route's schema: a value it refuses is the route's not-found code, the handler not run", async () => {
    const res = await call("GET", "/api/v3/parts/prt_1", { token: c.globalToken });
    expect(res.body.data).toEqual({ partId: "prt_1" });
    seen.mockClear();
    for (const bad of ["a.b", "a%00b", "x".repeat(65), "%20"]) {
      expectError(await call("GET", `/api/v3/parts/${bad}`, { token: c.globalToken }), 404, "WEBHOOK_NOT_FOUND");
    }
    expect(seen).not.toHaveBeenCalled();
  });

  it("PathText refuses only what no row can hold (a NUL byte)", async () => {
    expectError(await call("GET", "/api/v3/things/a%00b", { token: c.globalToken }), 404, "NOT_FOUND");
    expect((await call("GET", "/api/v3/things/a.b", { token: c.globalToken })).body.data).toEqual({
      params: { id: "a.b" },
    });
  });

  it("come after authentication: a bad id without a token is 401", async () => {
    expectError(await call("GET", "/api/v3/parts/a.b"), 401, "MISSING_AUTH_TOKEN");
  });
});

describe("the definition types the handler", () => {
  // Compile-time checks (tsc): the handlers are never called.
  const common = { method: "GET", versions: both, summary: "Types", tag: "Test", limit: "global" } as const;
  it("params from the path and their schemas, the sender from the resolution", () => {
    route({
      ...common,
      path: "/a/:one/b/:two",
      params: { one: PublicId, two: PathText },
      sender: "resolve",
      handler: async ({ params, sender }) => {
        expectTypeOf(params).toEqualTypeOf<{ one: string; two: string }>();
        expectTypeOf(sender).toEqualTypeOf<Sender>();
        // @ts-expect-error: no such parameter in the path
        params.three;
        return ok("Typed", {});
      },
    });
    route({
      ...common,
      path: "/c",
      sender: "resolve",
      senderOptions: { useDefault: false },
      handler: async ({ sender }) => {
        expectTypeOf(sender).toEqualTypeOf<Sender | undefined>();
        return ok("Typed", {});
      },
    });
    route({
      ...common,
      path: "/:phoneNumberId/d",
      params: { phoneNumberId: PathText },
      sender: "phoneNumberId",
      handler: async ({ sender }) => {
        expectTypeOf(sender).toEqualTypeOf<Sender>();
        return ok("Typed", {});
      },
    });
    route({
      ...common,
      path: "/e",
      handler: async ({ sender, params }) => {
        expectTypeOf(sender).toEqualTypeOf<undefined>();
        expectTypeOf(params).toEqualTypeOf<Record<never, never>>();
        return ok("Typed", {});
      },
    });
    // @ts-expect-error: a path parameter without a schema
    route({ ...common, path: "/g/:id", handler: async () => ok("Typed", {}) });
    route({
      ...common,
      path: "/f/:id",
      params: { id: PathText },
      // @ts-expect-error: a not-found code for a parameter the path does not have
      paramNotFound: { other: "NOT_FOUND" },
      handler: async () => ok("Typed", {}),
    });
  });
});

describe("request bodies", () => {
  it("415 UNSUPPORTED_CONTENT_TYPE for a non-JSON body or a missing Content-Type", async () => {
    expectError(
      await call("POST", "/api/v3/things", {
        token: c.globalToken,
        rawBody: "name=x",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      415,
      "UNSUPPORTED_CONTENT_TYPE",
    );
    expectError(await call("POST", "/api/v3/things", { token: c.globalToken }), 415, "UNSUPPORTED_CONTENT_TYPE");
    expectError(
      await call("POST", "/api/v3/things", {
        token: c.globalToken,
        rawBody: '{"name":"x"}',
        headers: { "Content-Type": "text/plain" },
      }),
      415,
      "UNSUPPORTED_CONTENT_TYPE",
    );
    // JSON with a charset parameter or a +json subtype is JSON.
    const ok = await call("POST", "/api/v3/things", {
      token: c.globalToken,
      rawBody: '{"name":"x"}',
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(ok.status).toBe(200);
  });

  it("malformed JSON is VALIDATION_FAILED and the message does not echo the body", async () => {
    const res = await call("POST", "/api/v3/things", {
      token: c.globalToken,
      rawBody: '{"name": "x", "secretish": "s3cr3t-value"',
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.message).toMatch(/not valid JSON/);
    expect(JSON.stringify(res.body)).not.toContain("s3cr3t-value");
  });

  it("a malformed body without a header token says what is wrong with the body", async () => {
    const res = await call("POST", "/api/v3/things", {
      rawBody: `authToken=${c.globalToken}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectError(res, 415, "UNSUPPORTED_CONTENT_TYPE");
  });

  it("schema errors are VALIDATION_FAILED with details.fields; JSON that is not an object is rejected", async () => {
    const res = await call("POST", "/api/v3/things", { token: c.globalToken, body: { name: "" } });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.details.fields[0].path).toBe("body.name");
    expect(res.body.message).toContain("body.name");
    for (const rawBody of ["42", "null", '"text"', "[]", "true"]) {
      const r = await call("POST", "/api/v3/things", {
        token: c.globalToken,
        rawBody,
        headers: { "Content-Type": "application/json" },
      });
      expectError(r, 400, "VALIDATION_FAILED");
    }
    expect(seen).not.toHaveBeenCalled();
  });

  it("unknown query parameters reach the schema (a strict schema rejects them)", async () => {
    const res = await call("GET", "/api/v3/things", { token: c.globalToken, query: { bogus: "1" } });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.details.fields[0].path).toBe("query");
  });

  describe("body size limit", () => {
    afterEach(() => {
      delete process.env.API_BODY_LIMIT_BYTES;
      resetEnvCache();
    });

    it("413 with a clear message over API_BODY_LIMIT_BYTES, declared or streamed", async () => {
      process.env.API_BODY_LIMIT_BYTES = "1024";
      resetEnvCache();
      const big = JSON.stringify({ name: "x".repeat(2000) });
      const declared = await call("POST", "/api/v3/things", {
        token: c.globalToken,
        rawBody: big,
        headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(big)) },
      });
      expectError(declared, 413, "PAYLOAD_TOO_LARGE");
      expect(declared.body.message).toBe("Request body exceeds the limit of 1024 bytes");
      expect(declared.body.details).toEqual({ limitBytes: 1024 });

      // No Content-Length: the body is counted while it streams.
      const chunks = [big.slice(0, 800), big.slice(800)];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      });
      const response = await handle(
        new Request("http://localhost/api/v3/things", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${c.globalToken}` },
          body: stream,
          // @ts-expect-error Node's fetch needs duplex for streamed bodies
          duplex: "half",
        }),
        { clientIp: "10.9.9.9" },
      );
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error_code: "PAYLOAD_TOO_LARGE", details: { limitBytes: 1024 } });

      const small = await call("POST", "/api/v3/things", { token: c.globalToken, body: { name: "x".repeat(900) } });
      expect(small.status).toBe(200);
      expect(seen).toHaveBeenCalledTimes(1);
    });
  });
});

describe("unexpected failures", () => {
  it("500 REQUEST_FAILED with no stack and no internal message", async () => {
    const res = await call("GET", "/api/v3/boom", { token: c.globalToken });
    expectError(res, 500, "REQUEST_FAILED");
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("db-internal");
    expect(text).not.toContain("admin");
    expect(text).not.toMatch(/\bat .*\.ts:\d+/);
    expect(text).not.toContain("stack");
    expect(res.body.details).toEqual({ requestId: res.body.metadata.requestId });
    expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
  });
});

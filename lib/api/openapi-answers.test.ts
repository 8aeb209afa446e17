// The document describes the real answers (docs/openapi.md): answers are validated against
// the response schema of their operation and status (Ajv, JSON Schema 2020-12) by
// recordApiAnswers (test/api-answers.ts), which each domain's API tests call; the answer
// coverage project (test/api-answer-coverage.test.ts) checks that every operation answered
// a success and an error across the suite. Here: planted mismatches that prove the
// validation fails when a schema is wrong, and the error answers every operation gives
// (no token, ids that name nothing, an unreadable body), computed from the document.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer } from "@/test/factory";
import { answerValidator, missingAnswers } from "@/test/openapi-answers";
import { callWith, type RecordedAnswer } from "@/test/router-call";
import { buildOpenApiDocument } from "./openapi";
import { ok, route } from "./route-definition";
import { routes } from "./route-table";
import { createRouter } from "./router";

const doc = buildOpenApiDocument(routes);
const validate = answerValidator(doc);

/** "/api/{version}/webhooks/{webhookUid}" as a concrete path. */
const concrete = (template: string, version: string, params: Record<string, string> = {}) =>
  template
    .replace("{version}", version)
    // A phone number id is digits (any other text is no route), as is the provider's node id
    // (/{id}: a phone number id or a media id); other ids any text.
    .replace(
      /\{([^}]+)\}/g,
      (_, name: string) => params[name] ?? (name === "phoneNumberId" || name === "id" ? "100000000000001" : "x1"),
    );

const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, op]) => ({ template, method: method.toUpperCase(), op })),
);

describe("a planted mismatch", () => {
  it("fails when the answer does not match its schema", async () => {
    const table = [
      route({
        method: "GET",
        path: "/count",
        versions: ["v3"],
        summary: "Count",
        tag: "Test",
        auth: "public",
        limit: "global",
        response: z.object({ count: z.number() }),
        handler: async () => ok("Counted", { count: "three" }),
      }),
    ];
    const planted = buildOpenApiDocument(table);
    const res = await callWith(createRouter(table), "GET", "/api/v3/count");
    expect(res.status).toBe(200);
    const problems = answerValidator(planted)({ method: "GET", path: "/api/v3/count", ...res });
    expect(problems.join("\n")).toMatch(/\/data\/count must be number/);
  });

  it("fails when a real answer loses a documented field (signingSecret)", async () => {
    const t = await createTestCustomer();
    const res = await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      body: { webhook: { name: "Log", endpointUrl: "https://example.com/in", events: ["message.status.read"] } },
    });
    expect(res.status).toBe(200);
    expect(validate({ method: "POST", path: "/api/v3/webhooks", ...res })).toEqual([]);
    const { signingSecret: _dropped, ...withoutSecret } = res.body;
    expect(validate({ method: "POST", path: "/api/v3/webhooks", status: 200, body: withoutSecret })).not.toEqual([]);
  });

  it("fails when a documented timestamp is not one (format: date-time)", async () => {
    const t = await createTestCustomer();
    const res = await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      body: { webhook: { name: "Log", endpointUrl: "https://example.com/in", events: ["message.status.read"] } },
    });
    expect(res.status).toBe(200);
    const body = { ...res.body, data: { ...res.body.data, createdAt: "yesterday" } };
    expect(validate({ method: "POST", path: "/api/v3/webhooks", status: 200, body }).join("\n")).toMatch(
      /\/data\/createdAt must match format "date-time"/,
    );
  });

  it("fails on an undocumented status or error code", () => {
    expect(validate({ method: "GET", path: "/api/v3/billing/messages", status: 418, body: {} })).toEqual([
      "GET /api/{version}/billing/messages 418: status not documented",
    ]);
    // A code the route cannot answer is not in its enum.
    const body = {
      success: false,
      message: "x",
      error_code: "WEBHOOK_ENDPOINT_INVALID",
      details: {},
      metadata: { apiVersion: "v3", requestId: "req_1" },
    };
    expect(validate({ method: "GET", path: "/api/v3/billing/messages", status: 400, body })).not.toEqual([]);
  });

  it("the coverage check names an operation without a success or an error", () => {
    const answers: RecordedAnswer[] = [
      { method: "GET", path: "/api/v3/billing/messages", status: 200, body: {} },
      { method: "GET", path: "/api/v3/billing/messages", status: 401, body: {} },
      { method: "GET", path: "/api/v3/billing/history", status: 401, body: {} },
    ];
    const missing = missingAnswers(doc, answers);
    expect(missing).not.toContainEqual(expect.stringContaining("GET /api/{version}/billing/messages"));
    expect(missing).toContain("GET /api/{version}/billing/history: no success answer");
    expect(missing).toContain("POST /api/{version}/webhooks: no success answer, no error answer");
  });
});

describe("the error codes of an operation", () => {
  it("are only those the route can answer", () => {
    const billing = doc.paths["/api/{version}/billing/messages"]?.get;
    expect(JSON.stringify(billing?.responses)).not.toMatch(/WEBHOOK_ENDPOINT_INVALID|RECIPIENT_BLACKLISTED/);
    // No path parameter, no phone number id: its only 404 is an unknown senderId; no operation is 405.
    expect(billing?.responses["404"]?.description).toBe("Not found: SENDER_NOT_FOUND");
    expect(Object.keys(billing?.responses ?? {})).not.toContain("405");
    // A sender resolved without requiring setup never answers WHATSAPP_SETUP_INCOMPLETE.
    expect(billing?.responses["403"]?.description).not.toMatch(/WHATSAPP_SETUP_INCOMPLETE|TOKEN_SCOPE_NOT_ALLOWED/);
    expect(billing?.responses["403"]?.description).toMatch(/SENDER_NOT_ALLOWED/);
    const webhookCreate = doc.paths["/api/{version}/webhooks"]?.post;
    expect(webhookCreate?.responses["400"]?.description).toMatch(/WEBHOOK_ENDPOINT_INVALID/);
    const history = doc.paths["/api/{version}/billing/history/{senderId}"]?.get;
    expect(history?.parameters.filter((p) => p.name === "senderId")).toHaveLength(1);
    const template = doc.paths["/api/{version}/templates/{identifier}"]?.get;
    expect(template?.responses["404"]?.description).toMatch(/NOT_FOUND/);
    expect(template?.responses["404"]?.description).not.toMatch(/TEMPLATE_NOT_FOUND/);
  });
});

describe("every operation answers as documented", () => {
  recordApiAnswers();

  /** Calls, and names the answer when its status is not the expected one. */
  async function expectStatus(status: number, method: string, path: string, options: Parameters<typeof call>[2]) {
    const res = await call(method, path, options);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
    return res;
  }

  it("errors: without a token, with ids that name nothing, with an empty body", async () => {
    const t = await createTestCustomer();
    for (const { template, method, op } of operations) {
      const path = concrete(template, op["x-versions"].at(-1) ?? "v3");
      if (op.security.length > 0) {
        expect((await call(method, path, method === "POST" ? { body: {} } : {})).status, path).toBe(401);
      }
      if (/\{(?!version)/.test(template) && op.security.length > 0) {
        const res = await call(method, path, { token: t.globalToken });
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      }
      if (op.requestBody) {
        const res = await call(method, path, {
          token: t.globalToken,
          rawBody: "{",
          headers: { "Content-Type": "application/json" },
        });
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      }
    }
    // The public document: only a refused rate limit can fail it.
    const limited = createRouter(routes, {
      rateLimiter: {
        consume: async () => {
          throw new ApiError("RATE_LIMITED", "Too many requests", {}, { "Retry-After": "60" });
        },
      },
    });
    expect((await callWith(limited, "GET", "/api/v3/openapi.json")).status).toBe(429);
  });

  it("the document itself", async () => {
    await expectStatus(200, "GET", "/api/v3/openapi.json", {});
    await expectStatus(200, "GET", "/api/v2/openapi.json", {});
  });
});

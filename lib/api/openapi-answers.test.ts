// The document describes the real answers: answers of the real router, success and error,
// are validated against the response schema of their operation and status (Ajv, JSON
// Schema 2020-12), and a planted mismatch is caught.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, createTestCustomer } from "@/test/factory";
import { messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { answerValidator } from "@/test/openapi-answers";
import { callWith } from "@/test/router-call";
import { buildOpenApiDocument } from "./openapi";
import { ok, route } from "./route-definition";
import { routes } from "./route-table";
import { createRouter } from "./router";

const doc = buildOpenApiDocument(routes);
const validate = answerValidator(doc);

/** "/api/{version}/webhooks/{webhookUid}" as a concrete path. */
const concrete = (template: string, version: string, params: Record<string, string> = {}) =>
  template.replace("{version}", version).replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? "x1");

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

  it("fails on an undocumented status", () => {
    expect(validate({ method: "GET", path: "/api/v3/billing/messages", status: 418, body: {} })).toEqual([
      "GET /api/{version}/billing/messages 418: status not documented",
    ]);
  });
});

describe("every operation", () => {
  it("answers a documented, schema-valid error", async () => {
    const problems: string[] = [];
    for (const { template, method, op } of operations) {
      const path = concrete(template, op["x-versions"].at(-1) ?? "v3");
      // Without a token (the public document: a method it does not allow).
      const m = op.security.length === 0 ? "POST" : method;
      const res = await call(m, path, m === "POST" ? { body: {} } : {});
      if (res.status < 400) problems.push(`${m} ${path}: expected an error, got ${res.status}`);
      if (op.security.length === 0) {
        expect(res.status).toBe(405);
        continue;
      }
      problems.push(...validate({ method: m, path, ...res }));
    }
    expect(problems).toEqual([]);
  });

  it("documents only the codes the route derives, not every code at every status", () => {
    const billing = doc.paths["/api/{version}/billing/messages"]?.get;
    expect(JSON.stringify(billing?.responses)).not.toMatch(/WEBHOOK_ENDPOINT_INVALID|RECIPIENT_BLACKLISTED/);
    const webhookCreate = doc.paths["/api/{version}/webhooks"]?.post;
    expect(webhookCreate?.responses["400"]?.description).toMatch(/WEBHOOK_ENDPOINT_INVALID/);
    const history = doc.paths["/api/{version}/billing/history/{senderId}"]?.get;
    expect(history?.parameters.filter((p) => p.name === "senderId")).toHaveLength(1);
  });
});

describe("success answers", () => {
  it("every GET without path parameters answers a schema-valid success", async () => {
    const t = await messagingCustomer();
    const problems: string[] = [];
    for (const { template, method, op } of operations) {
      if (method !== "GET" || /\{(?!version)/.test(template)) continue;
      const path = concrete(template, op["x-versions"].at(-1) ?? "v3");
      const res = await call(method, path, { token: t.globalToken, query: { senderId: t.sender.phoneNumber } });
      if (res.status >= 400)
        problems.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      problems.push(...validate({ method, path, ...res }));
    }
    expect(problems).toEqual([]);
  });

  it("the provider-compatible sends answer the provider's shape, success and error", async () => {
    const t = await messagingCustomer();
    const body = { to: recipient(), type: "template", template: { name: "spring_sale", language: { code: "en" } } };
    const paths = ["/api/v3/messages", `/api/v3/${t.sender.phoneNumberId}/messages`];
    for (const path of paths) {
      const sent = await call("POST", path, { token: t.globalToken, body });
      expect(sent.status).toBe(200);
      expect(validate({ method: "POST", path, ...sent })).toEqual([]);
      const bad = await call("POST", path, { token: t.globalToken, body: { to: recipient(), type: "text" } });
      expect(bad.status).toBe(400);
      expect(validate({ method: "POST", path, ...bad })).toEqual([]);
    }
  });

  it("order send, follow-up, list and read validate", async () => {
    const t = await messagingCustomer();
    const order = {
      currency: "usd",
      items: [{ name: "Mug", quantity: 1, amount: 8 }],
      tax: 1,
      shipping: 2,
      discount: 0,
    };
    const created = await call("POST", "/api/v3/orders/send", {
      token: t.globalToken,
      body: { to: recipient(), order },
    });
    expect(created.status).toBe(200);
    const uid = created.body.data.order.orderUid;
    const answers = [
      { method: "POST", path: "/api/v3/orders/send", ...created },
      {
        method: "POST",
        path: `/api/v3/orders/${uid}/send`,
        ...(await call("POST", `/api/v3/orders/${uid}/send`, { token: t.globalToken, body: { status: "shipped" } })),
      },
      { method: "GET", path: "/api/v3/orders", ...(await call("GET", "/api/v3/orders", { token: t.globalToken })) },
      {
        method: "GET",
        path: `/api/v2/orders/${uid}`,
        ...(await call("GET", `/api/v2/orders/${uid}`, { token: t.globalToken })),
      },
      {
        method: "GET",
        path: "/api/v3/orders/nope",
        ...(await call("GET", "/api/v3/orders/nope", { token: t.globalToken })),
      },
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 404]);
    for (const a of answers) expect(validate(a)).toEqual([]);
  });

  it("reports with sent messages validate on v2 and v3", async () => {
    const t = await messagingCustomer();
    const body = { to: recipient(), type: "template", template: { name: "spring_sale", language: { code: "en" } } };
    expect((await call("POST", "/api/v3/messages", { token: t.globalToken, body })).status).toBe(200);
    const problems: string[] = [];
    for (const version of ["v2", "v3"]) {
      for (const report of ["messages", "analytics/delivery", "analytics/templates"]) {
        const path = `/api/${version}/reports/${report}`;
        const res = await call("GET", path, { token: t.globalToken });
        if (res.status !== 200) problems.push(`${path}: ${res.status}`);
        if (report === "messages" && res.body.data?.messages?.length !== 1) problems.push(`${path}: no message row`);
        problems.push(...validate({ method: "GET", path, ...res }));
      }
    }
    expect(problems).toEqual([]);
  });

  it("billing history, webhook and template answers validate", async () => {
    const t = await messagingCustomer();
    const answers = [
      { method: "GET", path: `/api/v3/billing/history/${encodeURIComponent(t.sender.phoneNumber)}` },
      { method: "GET", path: "/api/v3/webhooks/events" },
      { method: "GET", path: "/api/v2/templates" },
      { method: "POST", path: "/api/v3/templates/sync" },
    ];
    for (const a of answers) {
      const res = await call(a.method, a.path, { token: t.globalToken, ...(a.method === "POST" ? { body: {} } : {}) });
      expect(res.status, `${a.method} ${a.path}`).toBe(200);
      expect(validate({ ...a, ...res })).toEqual([]);
    }
  });
});

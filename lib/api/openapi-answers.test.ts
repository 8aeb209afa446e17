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
import { contactWrites } from "@/test/conversation-fixtures";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
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

  it("billing", async () => {
    const t = await messagingCustomer();
    const token = t.globalToken;
    await expectStatus(200, "GET", "/api/v3/billing/messages", { token });
    await expectStatus(200, "GET", "/api/v3/billing/history", { token, query: { senderId: t.sender.phoneNumber } });
    await expectStatus(200, "GET", `/api/v3/billing/history/${encodeURIComponent(t.sender.phoneNumber)}`, { token });
    await expectStatus(403, "GET", "/api/v3/billing/messages", {
      token: t.scopedToken,
      query: { senderId: t.otherSender.phoneNumber },
    });
  });

  it("contact books, contacts, fields and the blacklist", async () => {
    const t = await createTestCustomer();
    const token = t.globalToken;
    const book = await expectStatus(201, "POST", "/api/v3/contact-books", {
      token,
      body: { contactBook: { name: "VIP" } },
    });
    const uid = book.body.data.uid as string;
    await expectStatus(200, "GET", "/api/v3/contact-books", { token });
    await expectStatus(200, "GET", `/api/v3/contact-books/${uid}`, { token });
    await expectStatus(200, "POST", `/api/v3/contact-books/${uid}`, { token, body: { contactBook: { name: "VIPs" } } });
    await expectStatus(201, "POST", "/api/v3/contact-fields", {
      token,
      body: { field: { key: "city", label: "City", type: "text" } },
    });
    await expectStatus(200, "GET", "/api/v3/contact-fields", { token });
    const phone = uniquePhone();
    await expectStatus(200, "POST", `/api/v3/contact-books/${uid}/contacts/bulk`, {
      token,
      body: { contacts: [{ phoneNumber: phone, name: "Ada", customFields: { city: "Paris" } }, { phoneNumber: "12" }] },
    });
    await expectStatus(200, "GET", `/api/v3/contact-books/${uid}/contacts`, { token });
    await expectStatus(403, "GET", "/api/v3/contact-books", { token: t.scopedToken });
    await expectStatus(200, "POST", "/api/v3/blacklist", { token, body: { phoneNumber: phone, reason: "asked" } });
    await expectStatus(200, "GET", "/api/v3/blacklist", { token });
    await expectStatus(200, "POST", "/api/v3/blacklist/remove", { token, body: { phoneNumber: phone } });
  });

  it("senders: list, connect, make default", async () => {
    const t = await createTestCustomer();
    const token = t.globalToken;
    await expectStatus(200, "GET", "/api/v3/senders", { token });
    const phoneNumber = uniquePhone();
    await expectStatus(201, "POST", "/api/v3/senders", { token, body: { sender: { phoneNumber } } });
    await expectStatus(400, "POST", "/api/v3/senders", { token, body: { sender: { phoneNumber } } });
    await expectStatus(200, "POST", `/api/v3/senders/${encodeURIComponent(phoneNumber)}/default`, { token });
    await expectStatus(404, "POST", `/api/v3/senders/${encodeURIComponent(uniquePhone())}/default`, { token });
  });

  it("chatbots: create, list, read, update, test", async () => {
    const t = await messagingCustomer();
    const token = t.globalToken;
    const chatbot = {
      name: "Front desk",
      rules: [{ match: { type: "keyword", value: "hours" }, reply: { type: "text", text: "Open 9 to 5" } }],
    };
    const created = await expectStatus(201, "POST", "/api/v3/chatbots", { token, body: { chatbot } });
    const uid = created.body.data.chatbotUid as string;
    await expectStatus(200, "GET", "/api/v3/chatbots", { token });
    await expectStatus(200, "GET", `/api/v3/chatbots/${uid}`, { token });
    await expectStatus(404, "GET", "/api/v3/chatbots/cb_nope", { token });
    await expectStatus(200, "POST", `/api/v3/chatbots/${uid}`, { token, body: { chatbot: { name: "Desk" } } });
    await expectStatus(200, "POST", `/api/v3/chatbots/${uid}/test`, { token, body: { text: "hours?" } });
  });

  it("sends: template, chat, provider-compatible, orders", async () => {
    const t = await messagingCustomer();
    const token = t.globalToken;
    const template = { name: "spring_sale", language: { code: "en" }, components: HELLO_PARAMS };
    await expectStatus(200, "POST", "/api/v3/send", {
      token,
      body: { to: recipient(), template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    await expectStatus(400, "POST", "/api/v3/send", {
      token,
      body: {
        to: recipient(),
        template: { name: "order_update", language: "en", components: HELLO_PARAMS },
        category: "utility",
      },
    });
    const engaged = uniquePhone();
    await contactWrites(t.sender, engaged);
    await expectStatus(200, "POST", "/api/v3/chat", { token, body: { to: engaged, text: "Hello" } });
    await expectStatus(400, "POST", "/api/v3/chat", { token, body: { to: recipient(), text: "Hello" } });
    const provider = { to: recipient(), type: "template", template };
    for (const path of ["/api/v3/messages", `/api/v3/${t.sender.phoneNumberId}/messages`]) {
      await expectStatus(200, "POST", path, { token, body: provider });
      await expectStatus(400, "POST", path, { token, body: { to: recipient(), type: "text" } });
    }
    const order = {
      currency: "usd",
      items: [{ name: "Mug", quantity: 1, amount: 8 }],
      tax: 1,
      shipping: 2,
      discount: 0,
    };
    const sent = await expectStatus(200, "POST", "/api/v3/orders/send", { token, body: { to: recipient(), order } });
    const orderUid = sent.body.data.order.orderUid as string;
    await expectStatus(200, "POST", `/api/v3/orders/${orderUid}/send`, { token, body: { status: "shipped" } });
    await expectStatus(200, "GET", "/api/v3/orders", { token });
    await expectStatus(200, "GET", `/api/v2/orders/${orderUid}`, { token });
    await expectStatus(404, "GET", "/api/v3/orders/nope", { token });
  });

  it("templates and reports", async () => {
    const t = await messagingCustomer();
    const token = t.globalToken;
    await expectStatus(200, "GET", "/api/v2/templates", { token });
    await expectStatus(200, "GET", "/api/v3/templates", { token });
    await expectStatus(200, "GET", `/api/v3/templates/${t.template.id}`, { token });
    await expectStatus(200, "GET", "/api/v2/templates/spring_sale", { token });
    await expectStatus(404, "GET", "/api/v3/templates/no_such_template", { token });
    const template = {
      name: "shipping_notice",
      language: "en_US",
      category: "utility",
      components: [{ type: "BODY", text: "Shipped {{1}}" }],
    };
    await expectStatus(201, "POST", "/api/v3/templates", { token, body: { template } });
    await expectStatus(409, "POST", "/api/v3/templates", { token, body: { template } });
    await expectStatus(200, "POST", "/api/v3/templates/sync", { token, body: {} });
    await expectStatus(200, "POST", "/api/v3/send", {
      token,
      body: { to: recipient(), template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    for (const version of ["v2", "v3"]) {
      for (const report of ["messages", "analytics/delivery", "analytics/templates"]) {
        await expectStatus(200, "GET", `/api/${version}/reports/${report}`, { token });
      }
    }
    await expectStatus(400, "GET", "/api/v3/reports/messages", { token, query: { dateFrom: "yesterday" } });
  });

  it("conversations: list, read, update, messages, reply", async () => {
    const t = await messagingCustomer();
    const token = t.globalToken;
    await contactWrites(t.sender, uniquePhone(), "Hi there");
    const list = await expectStatus(200, "GET", "/api/v3/conversations", { token });
    const uid = list.body.data.conversations[0].conversationUid as string;
    await expectStatus(200, "GET", `/api/v3/conversations/${uid}`, { token });
    await expectStatus(200, "GET", `/api/v3/conversations/${uid}/messages`, { token });
    await expectStatus(200, "POST", `/api/v3/conversations/${uid}/messages`, {
      token,
      body: { message: { type: "text", text: { body: "Hello back" } } },
    });
    await expectStatus(200, "POST", `/api/v3/conversations/${uid}`, {
      token,
      body: { conversation: { markRead: true } },
    });
    await expectStatus(404, "GET", "/api/v3/conversations/nope", { token });
  });
});

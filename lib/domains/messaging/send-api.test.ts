// The send routes through the real router, on v2 and v3, against the built-in simulator.
import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/route-table";
import { db } from "@/lib/db";
import { setRate } from "@/lib/domains/billing/rate-card";
import { addToBlacklist } from "@/lib/domains/contacts/blacklist";
import { getSimulator } from "@/lib/domains/provider/client";
import { recordApiAnswers } from "@/test/api-answers";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const sim = () => {
  const s = getSimulator();
  if (!s) throw new Error("tests expect the simulator");
  return s;
};
const templateBody = (to: string, extra: Record<string, unknown> = {}) => ({
  to,
  template: {
    name: "order_update",
    language: "en",
    components: [{ type: "body", parameters: [{ type: "text", text: "42" }] }],
  },
  ...extra,
});

describe("send routes are counted by the send limits", () => {
  it("classes every send route as send and the report routes as reports", () => {
    const sends = ["/send", "/chat", "/messages", "/:phoneNumberId/messages"];
    for (const path of sends) {
      const r = routes.find((x) => x.path === path && x.method === "POST");
      expect(r?.limit, path).toBe("send");
      expect(r?.versions).toEqual(["v2", "v3"]);
    }
    for (const r of routes.filter((x) => x.path.startsWith("/reports/"))) expect(r.limit, r.path).toBe("reports");
  });
});

describe("POST /send", () => {
  it.each(["v2", "v3"])("sends an approved template on %s and returns an acceptance receipt", async (v) => {
    const t = await messagingCustomer();
    const to = recipient();
    const res = await call("POST", `/api/${v}/send`, { token: t.globalToken, body: templateBody(to) });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-service-message-id");
    expect(id).toMatch(/^wamid\./);
    expect(res.headers.get("x-service-phone-number-id")).toBe(t.sender.phoneNumberId);
    expect(res.headers.get("x-service-queued")).toBeNull();
    expect(res.body.data).toMatchObject({
      messageId: id,
      status: "accepted",
      queued: false,
      recipient: to,
      senderId: t.sender.phoneNumber,
      sendRoute: "send",
      type: "template",
      template: { name: "order_update", language: "en", category: "UTILITY" },
    });
    expect(res.body.metadata.apiVersion).toBe(v);
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });

  it("refuses Direct Send fields on v3 and ignores them on v2", async () => {
    const t = await messagingCustomer();
    const v3 = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: templateBody(recipient(), { category: "utility" }),
    });
    expect(v3.status).toBe(400);
    expect(v3.body.error_code).toBe("DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND");
    const v2 = await call("POST", "/api/v2/send", {
      token: t.globalToken,
      body: templateBody(recipient(), { category: "utility" }),
    });
    expect(v2.status).toBe(200);
  });

  it("refuses unknown and unapproved templates", async () => {
    const t = await messagingCustomer();
    await db.template.create({
      data: { customerId: t.customer.id, name: "draft", language: "en", category: "UTILITY", status: "PENDING" },
    });
    const missing = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "nope" } },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error_code).toBe("TEMPLATE_NOT_FOUND");
    const pending = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "draft" } },
    });
    expect(pending.status).toBe(400);
    expect(pending.body.error_code).toBe("TEMPLATE_NOT_APPROVED");
  });

  it("validates the body and resolves the sender like every route", async () => {
    const t = await messagingCustomer();
    const bad = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: "12", template: { name: "order_update", components: HELLO_PARAMS } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");
    expect(bad.body.details.fields[0].path).toBe("body.to");
    const scoped = await call("POST", "/api/v3/send", {
      token: t.scopedToken,
      body: templateBody(recipient(), { senderId: t.otherSender.phoneNumber }),
    });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    const incomplete = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: templateBody(recipient(), { senderId: t.incompleteSender.phoneNumber }),
    });
    expect(incomplete.body.error_code).toBe("WHATSAPP_SETUP_INCOMPLETE");
    const noToken = await call("POST", "/api/v3/send", { body: templateBody(recipient()) });
    expect(noToken.status).toBe(401);
  });
});

describe("POST /chat", () => {
  it.each(["v2", "v3"])("sends a session text on %s without directSend", async (v) => {
    const t = await messagingCustomer();
    const res = await call("POST", `/api/${v}/chat`, {
      token: t.scopedToken,
      body: { to: await engagedRecipient(t.sender), text: "Hi there" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: "text", sendRoute: "chat", template: null, status: "accepted" });
    expect(res.body.data.directSend).toBeUndefined();
  });

  it("supports Direct Send on v3 only, returning data.directSend", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const res = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, text: "Your code is 123456", category: "authentication", ttlSeconds: 300 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.directSend).toMatchObject({
      category: "authentication",
      templateName: "switchboard_direct_authentication",
      ttlSeconds: 300,
    });
    expect(res.body.data.directSend.metaTemplateId).toMatch(/^\d+$/);
    expect(sim().acceptedTo(to)[0]).toMatchObject({ type: "template", category: "authentication" });
    const auto = await db.template.findFirst({
      where: { customerId: t.customer.id, name: "switchboard_direct_authentication" },
    });
    expect(auto?.source).toBe("AUTO_GENERATED");

    const v2 = await call("POST", "/api/v2/chat", {
      token: t.globalToken,
      body: { to, text: "x", category: "utility" },
    });
    expect(v2.status).toBe(400);
    expect(v2.body.error_code).toBe("VALIDATION_FAILED");
    const badCategory = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, text: "x", category: "marketing" },
    });
    expect(badCategory.status).toBe(400);
  });

  it("sends media and checks that the type's part is present", async () => {
    const t = await messagingCustomer();
    const ok = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        to: await engagedRecipient(t.sender),
        type: "image",
        media: { link: "https://example.com/a.png", caption: "A" },
      },
    });
    expect(ok.status).toBe(200);
    const missing = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to: recipient(), type: "image" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.details.fields[0].path).toBe("body.media");
  });
});

describe("provider-compatible sends", () => {
  it.each(["v2", "v3"])("answers POST /%s/messages in the provider's shape", async (v) => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const res = await call("POST", `/api/${v}/messages`, {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", to: to.slice(1), type: "text", text: { body: "hello" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messaging_product: "whatsapp",
      // `to` echoed as sent, as the provider does (docs/messaging.md "Provider SDKs").
      contacts: [{ input: to.slice(1), wa_id: to.slice(1) }],
      messages: [{ id: res.headers.get("x-service-message-id"), message_status: "accepted" }],
    });
    expect(res.headers.get("x-service-request-id")).toMatch(/^req_/);
  });

  it("answers errors in the provider's shape", async () => {
    const t = await messagingCustomer();
    const bad = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to: recipient(), type: "text" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: "OAuthException", code: 100, error_subcode: null });
    expect(typeof bad.body.error.message).toBe("string");
    expect(bad.body.error.fbtrace_id).toBe(bad.headers.get("x-service-request-id"));
    expect(bad.body.success).toBeUndefined();
    const unauth = await call("POST", "/api/v3/messages", {
      body: { to: recipient(), type: "text", text: { body: "x" } },
    });
    expect(unauth.status).toBe(401);
    expect(unauth.body.error.code).toBe(190);
  });

  it("sends a template through POST /{phoneNumberId}/messages", async () => {
    const t = await messagingCustomer();
    const res = await call("POST", `/api/v3/${t.otherSender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: {
        to: recipient(),
        type: "template",
        template: { name: "spring_sale", language: { code: "en" }, components: HELLO_PARAMS },
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-phone-number-id")).toBe(t.otherSender.phoneNumberId);
    const stored = await db.message.findFirst({ where: { providerMessageId: res.body.messages[0].id } });
    expect(stored).toMatchObject({
      senderId: t.otherSender.id,
      sendRoute: "messages",
      templateName: "spring_sale",
      pricingCategory: "marketing",
    });

    const scoped = await call("POST", `/api/v3/${t.otherSender.phoneNumberId}/messages`, {
      token: t.scopedToken,
      body: { to: recipient(), type: "text", text: { body: "x" } },
    });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.code).toBe(200);
    const other = await messagingCustomer();
    const foreign = await call("POST", `/api/v3/${other.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: { to: recipient(), type: "text", text: { body: "x" } },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBeDefined();
  });

  it("supports the provider-native Direct Send category on v3 only", async () => {
    const t = await messagingCustomer();
    const body = { to: recipient(), type: "text", text: { body: "Code 1234" }, category: "AUTHENTICATION" };
    const v3 = await call("POST", "/api/v3/messages", { token: t.globalToken, body });
    expect(v3.status).toBe(200);
    const stored = await db.message.findFirst({ where: { providerMessageId: v3.body.messages[0].id } });
    expect(stored?.directSendCategory).toBe("authentication");
    const v2 = await call("POST", "/api/v2/messages", { token: t.globalToken, body });
    expect(v2.status).toBe(400);
  });
});

describe("refusals", () => {
  it("refuses blacklisted recipients", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    await addToBlacklist(t.customer.id, t.sender.id, to, "opted out");
    const res = await call("POST", "/api/v3/send", { token: t.globalToken, body: templateBody(to) });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("RECIPIENT_BLACKLISTED");
    const provider = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to, text: { body: "x" } },
    });
    expect(provider.status).toBe(400);
    expect(provider.body.error.code).toBe(131026);
    // The blacklist is per sender: the other sender may still write to this number.
    const other = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: templateBody(to, { senderId: t.otherSender.phoneNumber }),
    });
    expect(other.status).toBe(200);
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });

  it("refuses paid messages the balance does not cover, with 402 INSUFFICIENT_BALANCE", async () => {
    const t = await messagingCustomer({ credit: 0 });
    await setRate({ category: "marketing", rate: 0.05, customerId: t.customer.id });
    const res = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "spring_sale", components: HELLO_PARAMS } },
    });
    expect(res.status).toBe(402);
    expect(res.body.error_code).toBe("INSUFFICIENT_BALANCE");
    expect(res.body.details).toMatchObject({ balance: 0, required: 0.05, pricingCategory: "marketing" });
    // Session (service) messages are free, so they still go out.
    const chat = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to: await engagedRecipient(t.sender), text: "hi" },
    });
    expect(chat.status).toBe(200);
    await db.billingTransaction.create({ data: { customerId: t.customer.id, type: "credit", amount: 1 } });
    const again = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "spring_sale", components: HELLO_PARAMS } },
    });
    expect(again.status).toBe(200);
  });

  it("refuses sends from a disconnected sender", async () => {
    const t = await messagingCustomer();
    await db.sender.update({ where: { id: t.otherSender.id }, data: { connectionStatus: "DISCONNECTED" } });
    const res = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: templateBody(recipient(), { senderId: t.otherSender.phoneNumber }),
    });
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe("SENDER_DISCONNECTED");
  });
});

// Template parameters on every send path (docs/templates.md "Parameters"): the template
// "Hi {{1}}, your order {{2}} is on its way." sent without its values is refused before
// anything is stored, sent or charged: VALIDATION_FAILED naming the component and index on
// our routes, the provider's 132000 on the provider-compatible ones, in the dashboard's
// composer and inbox, and for a chatbot's template reply. Orders carry no template.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sendDueReplies } from "@/lib/domains/chatbots/worker";
import { getSimulator } from "@/lib/domains/provider/client";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { addTemplate, messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const composerRoute = await import("@/app/api/dashboard/[...path]/route");
const inboxReplyRoute = await import("@/app/api/dashboard/[...path]/route");

const ORDER_UPDATE = "Hi {{1}}, your order {{2}} is on its way.";
const MISSING_FIRST =
  "Template order_parcel (en): body parameter 1 ({{1}}) is missing: the template's body takes 2 parameters, 0 given";
const MISSING_BOT = MISSING_FIRST.replace("order_parcel", "bot_parcel");
const body = (...texts: string[]) => [{ type: "body", parameters: texts.map((text) => ({ type: "text", text })) }];
const ORIGIN = "http://dash.test";
const dashboardPost = (path: string, json: unknown) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "dash.test", Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });

// A header variable, a body variable and a URL button with a variable suffix.
const TRACK_PARCEL = [
  { type: "HEADER", format: "TEXT", text: "Parcel {{1}}" },
  { type: "BODY", text: "Hi {{1}}, tap below to follow it." },
  { type: "BUTTONS", buttons: [{ type: "URL", text: "Track", url: "https://shop.test/t/{{1}}" }] },
];
const header = (text: string) => ({ type: "header", parameters: [{ type: "text", text }] });
const urlButton = (text: string) => ({
  type: "button",
  sub_type: "url",
  index: "0",
  parameters: [{ type: "text", text }],
});

let t: Awaited<ReturnType<typeof messagingCustomer>>;
const accepted = (to: string) => getSimulator()?.acceptedTo(to) ?? [];
const storedTo = (to: string) => db.message.count({ where: { customerId: t.customer.id, recipient: to } });

beforeAll(async () => {
  t = await messagingCustomer();
  const parcel = await addTemplate(t.customer.id, { name: "order_parcel" });
  await db.template.update({ where: { id: parcel.id }, data: { components: [{ type: "BODY", text: ORDER_UPDATE }] } });
  const bot = await addTemplate(t.customer.id, { name: "bot_parcel" });
  await db.template.update({ where: { id: bot.id }, data: { components: [{ type: "BODY", text: ORDER_UPDATE }] } });
  const track = await addTemplate(t.customer.id, { name: "track_parcel" });
  await db.template.update({ where: { id: track.id }, data: { components: TRACK_PARCEL } });
  const receipt = await addTemplate(t.customer.id, { name: "receipt_doc" });
  await db.template.update({
    where: { id: receipt.id },
    data: {
      components: [
        { type: "HEADER", format: "DOCUMENT" },
        { type: "BODY", text: "Your receipt" },
      ],
    },
  });
  const user = await db.user.create({
    data: {
      customerId: t.customer.id,
      email: `params-${randomBytes(4).toString("hex")}@example.test`,
      passwordHash: "x",
    },
  });
  // A session's principal carries its member (lib/domains/security/session-principal.ts); an owner may send.
  nextRequest.principal = {
    customerId: t.customer.id,
    plan: "pro",
    via: "session",
    userId: user.id,
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId: user.id, email: user.email, name: null, role: "owner", senderIds: null },
  };
});

describe("POST /send", () => {
  it.each(["v2", "v3"])("%s refuses missing parameters, naming the component and index; nothing is sent", async (v) => {
    const to = uniquePhone();
    const res = await call("POST", `/api/${v}/send`, {
      token: t.globalToken,
      body: { to, template: { name: "order_parcel", language: "en" } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error_code: "VALIDATION_FAILED",
      message: MISSING_FIRST,
      details: { component: "body", index: 0, expected: 2, received: 0, template: "order_parcel" },
    });
    expect(accepted(to)).toHaveLength(0);
    expect(await storedTo(to)).toBe(0);
  });

  it("refuses one parameter too many and accepts exactly the template's two", async () => {
    const to = uniquePhone();
    const extra = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "order_parcel", components: body("Ana", "A-1", "x") } },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.details).toMatchObject({ component: "body", index: 2, expected: 2, received: 3 });
    const ok = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "order_parcel", components: body("Ana", "A-1") } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(accepted(to)).toHaveLength(1);
  });
});

describe("header and button parameters", () => {
  const send = (to: string, components: unknown[]) =>
    call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "track_parcel", language: "en", components } },
    });

  it("a missing header parameter, then a missing button parameter, are refused naming the component and index", async () => {
    const to = uniquePhone();
    const noHeader = await send(to, body("Ana"));
    expect(noHeader.status).toBe(400);
    expect(noHeader.body).toMatchObject({
      error_code: "VALIDATION_FAILED",
      message:
        "Template track_parcel (en): header parameter 1 ({{1}}) is missing: the template's header takes 1 parameter, 0 given",
      details: { component: "header", index: 0, expected: 1, received: 0, providerCode: 132000 },
    });
    const noButton = await send(to, [header("P-1"), ...body("Ana")]);
    expect(noButton.status).toBe(400);
    expect(noButton.body).toMatchObject({
      error_code: "VALIDATION_FAILED",
      message: 'Template track_parcel (en): button 0 ("Track") needs a text parameter (sub_type url), none given',
      details: { component: "button", index: 0, expected: 1, received: 0, providerCode: 132000 },
    });
    const wrongSubType = await send(to, [
      header("P-1"),
      ...body("Ana"),
      { ...urlButton("P-1"), sub_type: "quick_reply" },
    ]);
    expect(wrongSubType.body.details).toMatchObject({ component: "button", index: 0, providerCode: 132012 });
    expect(accepted(to)).toHaveLength(0);
    expect(await storedTo(to)).toBe(0);
    const ok = await send(to, [header("P-1"), ...body("Ana"), urlButton("P-1")]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(accepted(to)).toHaveLength(1);
  });

  it("the provider-compatible route answers a missing button parameter with the provider's 132000", async () => {
    const to = uniquePhone();
    const res = await call("POST", `/api/v2/${t.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: {
        to,
        type: "template",
        template: { name: "track_parcel", language: { code: "en" }, components: [header("P-1"), ...body("Ana")] },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 132000,
      message: 'Template track_parcel (en): button 0 ("Track") needs a text parameter (sub_type url), none given',
      error_data: { error_code: "VALIDATION_FAILED" },
    });
    expect(accepted(to)).toHaveLength(0);
  });
});

describe("provider-compatible routes", () => {
  it("answer the provider's 132000 for a count and 132012 for a kind, and send nothing", async () => {
    const to = uniquePhone();
    for (const path of ["/api/v3/messages", `/api/v2/${t.sender.phoneNumberId}/messages`]) {
      const count = await call("POST", path, {
        token: t.globalToken,
        body: { to, type: "template", template: { name: "order_parcel", language: { code: "en" } } },
      });
      expect(count.status).toBe(400);
      expect(count.body).toEqual({
        error: {
          message: MISSING_FIRST,
          type: "OAuthException",
          code: 132000,
          error_subcode: null,
          error_data: { details: MISSING_FIRST, error_code: "VALIDATION_FAILED" },
          fbtrace_id: expect.any(String),
        },
      });
      const kind = await call("POST", path, {
        token: t.globalToken,
        body: {
          to,
          type: "template",
          template: {
            name: "receipt_doc",
            language: { code: "en" },
            components: [{ type: "header", parameters: [{ type: "text", text: "receipt.pdf" }] }],
          },
        },
      });
      expect(kind.status).toBe(400);
      expect(kind.body.error).toMatchObject({
        code: 132012,
        message: "Template receipt_doc (en): header parameter 1 must be of type document, not text",
      });
    }
    expect(accepted(to)).toHaveLength(0);
    expect(await storedTo(to)).toBe(0);
  });
});

describe("conversations and the dashboard", () => {
  it("a template reply in a conversation (API and inbox picker) is refused without its values", async () => {
    const to = uniquePhone();
    await contactWrites(t.sender, to, "Where is my parcel?");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: to },
    });
    const message = { type: "template", template: { name: "order_parcel", language: "en" } };
    const api = await call("POST", `/api/v3/conversations/${conversation.id}/messages`, {
      token: t.globalToken,
      body: { message },
    });
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ error_code: "VALIDATION_FAILED", message: MISSING_FIRST });
    const inbox = await inboxReplyRoute.POST(
      dashboardPost(`/api/dashboard/conversations/${conversation.id}/messages`, { message }),
      { params: Promise.resolve({ uid: conversation.id }) },
    );
    expect(inbox.status).toBe(400);
    expect(await inbox.json()).toMatchObject({ error_code: "VALIDATION_FAILED", message: MISSING_FIRST });
    expect(accepted(to)).toHaveLength(0);
    const filled = await inboxReplyRoute.POST(
      dashboardPost(`/api/dashboard/conversations/${conversation.id}/messages`, {
        message: { ...message, template: { ...message.template, components: body("Ana", "A-1") } },
      }),
      { params: Promise.resolve({ uid: conversation.id }) },
    );
    expect(filled.status).toBe(200);
    expect(accepted(to)).toHaveLength(1);
  });

  it("the Messages composer is refused without the values and sends with them", async () => {
    const to = uniquePhone();
    const send = (components?: unknown[]) =>
      composerRoute.POST(
        dashboardPost("/api/dashboard/messages", {
          mode: "template",
          senderId: t.sender.phoneNumber,
          to,
          template: { name: "order_parcel", language: "en", ...(components ? { components } : {}) },
        }),
      );
    const refused = await send();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error_code: "VALIDATION_FAILED", message: MISSING_FIRST });
    expect(await storedTo(to)).toBe(0);
    const sent = await send(body("Ana", "A-1"));
    expect(sent.status).toBe(200);
    expect(accepted(to)).toHaveLength(1);
  });
});

describe("chatbot template replies", () => {
  it("are checked when the bot is saved, and again when a reply goes out", async () => {
    const reply = (components?: unknown[]) => ({
      type: "template",
      template: { name: "bot_parcel", language: "en", ...(components ? { components } : {}) },
    });
    const refused = await call("POST", "/api/v3/chatbots", {
      token: t.globalToken,
      body: { chatbot: { name: "Parcels", rules: [{ match: { type: "keyword", value: "parcel" }, reply: reply() }] } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error_code: "VALIDATION_FAILED",
      message: `chatbot.rules.0.reply: ${MISSING_BOT}`,
      details: { fields: [{ path: "body.chatbot.rules.0.reply.template.components", message: MISSING_BOT }] },
    });
    const created = await call("POST", "/api/v3/chatbots", {
      token: t.globalToken,
      body: {
        chatbot: {
          name: "Parcels",
          status: "ACTIVE",
          rules: [{ match: { type: "keyword", value: "parcel" }, reply: reply(body("Ana", "A-1")) }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The template changes after the bot was saved (it was never sent, so no send remembers it):
    // the reply is refused at the send, not sent.
    await db.template.updateMany({
      where: { customerId: t.customer.id, name: "bot_parcel" },
      data: { components: [{ type: "BODY", text: "Hi {{1}}, order {{2}}, due {{3}}" }] },
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "parcel");
    await sendDueReplies({ customerIds: [t.customer.id], retryBaseMs: 10 });
    const outbox = await db.chatbotReply.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: contact },
    });
    expect(outbox.status).toBe("FAILED");
    expect(outbox.lastError).toContain(
      "VALIDATION_FAILED: Template bot_parcel (en): body parameter 3 ({{3}}) is missing",
    );
    expect(accepted(contact)).toHaveLength(0);
  });
});

describe("orders", () => {
  it("carry no template parameters: an order message goes out unchanged", async () => {
    const to = uniquePhone();
    const res = await call("POST", "/api/v3/orders/send", {
      token: t.globalToken,
      body: { to, order: { items: [{ name: "Mug", quantity: 1, amount: 8 }] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(accepted(to)).toHaveLength(1);
  });
});

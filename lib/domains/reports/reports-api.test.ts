// Reports through the real router: the message log with its delivery progress (the message's
// status and its billing record, as ingestion writes them); v3 adds send-route and Direct Send
// fields and filters.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

type T = Awaited<ReturnType<typeof messagingCustomer>>;
let t: T;
const ids: Record<string, string> = {};

async function progress(
  messageId: string,
  status: string,
  t0: T,
  senderId = t0.sender.id,
  pnid = t0.sender.phoneNumberId ?? "",
) {
  const m = await db.message.findFirstOrThrow({ where: { providerMessageId: messageId } });
  await db.billingRecord.create({
    data: {
      customerId: t0.customer.id,
      senderId,
      phoneNumberId: pnid,
      senderPhoneNumber: t0.sender.phoneNumber,
      messageId,
      recipientId: m.recipient.slice(1),
      status,
      billable: true,
      billingClass: "payable",
      pricingCategory: m.pricingCategory,
      rate: 0.01,
      messageTimestamp: new Date(),
      ...(status === "failed" ? { errorCode: 131026, errorTitle: "Message undeliverable" } : {}),
    },
  });
  // As the callback processor moves them together: the message keeps its own status (lib/domains/messages).
  await db.message.update({
    where: { id: m.id },
    data: { status, ...(status === "failed" ? { errorCode: 131026, errorMessage: "Message undeliverable" } : {}) },
  });
}

beforeAll(async () => {
  t = await messagingCustomer();
  // Before any send: draining the inbound callback must not apply the simulator's statuses.
  const engaged = await engagedRecipient(t.sender);
  const send = async (name: string, path: string, body: unknown) => {
    const res = await call("POST", `/api/v3/${path}`, { token: t.globalToken, body });
    expect(res.status).toBe(200);
    ids[name] = res.headers.get("x-service-message-id") ?? "";
  };
  await send("read", "send", { to: recipient(), template: { name: "order_update", components: HELLO_PARAMS } });
  await send("delivered", "send", { to: recipient(), template: { name: "order_update", components: HELLO_PARAMS } });
  await send("failed", "send", { to: recipient(), template: { name: "spring_sale", components: HELLO_PARAMS } });
  await send("chat", "chat", { to: engaged, text: "hello" });
  await send("direct", "chat", { to: recipient(), text: "code 1", category: "utility", ttlSeconds: 600 });
  await progress(ids.read ?? "", "read", t);
  await progress(ids.delivered ?? "", "delivered", t);
  await progress(ids.failed ?? "", "failed", t);
  await progress(ids.direct ?? "", "sent", t);
});

describe("GET /reports/messages", () => {
  it("lists the customer's messages with their delivery status, newest first", async () => {
    const res = await call("GET", "/api/v3/reports/messages", { token: t.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.data.scope).toBe("user");
    expect(res.body.data.pagination).toMatchObject({ page: 1, limit: 50, total: 5, count: 5, hasMore: false });
    const byId = Object.fromEntries(res.body.data.messages.map((m: { messageId: string }) => [m.messageId, m]));
    expect(byId[ids.read ?? ""]).toMatchObject({
      status: "read",
      templateName: "order_update",
      sendRoute: "send",
      rate: 0.01,
    });
    expect(byId[ids.failed ?? ""]).toMatchObject({ status: "failed", errorCode: 131026 });
    expect(byId[ids.chat ?? ""]).toMatchObject({ status: "accepted", sendRoute: "chat", directSendCategory: null });
    expect(byId[ids.direct ?? ""]).toMatchObject({
      status: "sent",
      directSendCategory: "utility",
      directSendTemplateName: "switchboard_direct_utility",
      ttlSeconds: 600,
    });
    expect(byId[ids.direct ?? ""].metaTemplateId).toMatch(/^\d+$/);
  });

  it("omits the v3-only fields on v2 and ignores the v3-only filters there", async () => {
    const v2 = await call("GET", "/api/v2/reports/messages", { token: t.globalToken, query: { sendRoute: "chat" } });
    expect(v2.status).toBe(200);
    expect(v2.body.data.pagination.total).toBe(5);
    for (const m of v2.body.data.messages) {
      for (const f of ["sendRoute", "directSendCategory", "directSendTemplateName", "ttlSeconds", "metaTemplateId"]) {
        expect(m).not.toHaveProperty(f);
      }
    }
  });

  it("filters by status, sendRoute, directSendCategory, template and message id", async () => {
    const q = async (query: Record<string, string>) =>
      (await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query })).body.data.messages.map(
        (m: { messageId: string }) => m.messageId,
      );
    expect(await q({ status: "read" })).toEqual([ids.read]);
    expect((await q({ sendRoute: "chat" })).sort()).toEqual([ids.chat, ids.direct].sort());
    expect(await q({ directSendCategory: "utility" })).toEqual([ids.direct]);
    expect(await q({ templateName: "spring_sale" })).toEqual([ids.failed]);
    expect(await q({ messageId: ids.delivered ?? "" })).toEqual([ids.delivered]);
    expect(await q({ dateFrom: "2000-01-01", dateTo: "2000-01-02" })).toEqual([]);
    const page = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { limit: 2, page: 2 } });
    expect(page.body.data.pagination).toMatchObject({ page: 2, limit: 2, total: 5, count: 2, hasMore: true });
    const bad = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { sendRoute: "fax" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("VALIDATION_FAILED");
  });

  it("keeps tenants and number-scoped tokens apart", async () => {
    const other = await messagingCustomer();
    const foreign = await call("GET", "/api/v3/reports/messages", { token: other.globalToken });
    expect(foreign.body.data.messages).toEqual([]);
    const otherSender = await call("GET", "/api/v3/reports/messages", {
      token: t.globalToken,
      query: { senderId: t.otherSender.phoneNumber },
    });
    expect(otherSender.body.data).toMatchObject({ scope: "sender", senderId: t.otherSender.phoneNumber });
    expect(otherSender.body.data.messages).toEqual([]);
    const scoped = await call("GET", "/api/v3/reports/messages", {
      token: t.scopedToken,
      query: { senderId: t.otherSender.phoneNumber },
    });
    expect(scoped.status).toBe(403);
  });
});

describe("GET /reports/analytics/delivery", () => {
  it("gives rates by day, and on v3 by send route", async () => {
    const res = await call("GET", "/api/v3/reports/analytics/delivery", { token: t.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.data.totals).toMatchObject({
      total: 5,
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 1,
      deliveryRate: 0.4,
      readRate: 0.2,
    });
    expect(res.body.data.byDay).toHaveLength(1);
    expect(res.body.data.byDay[0].date).toBe(new Date().toISOString().slice(0, 10));
    const routes = Object.fromEntries(
      res.body.data.bySendRoute.map((r: { sendRoute: string; total: number }) => [r.sendRoute, r.total]),
    );
    expect(routes).toEqual({ chat: 2, send: 3 });
    const v2 = await call("GET", "/api/v2/reports/analytics/delivery", { token: t.globalToken });
    expect(v2.body.data.bySendRoute).toBeUndefined();
    expect(v2.body.data.totals.total).toBe(5);
  });
});

describe("GET /reports/analytics/templates", () => {
  it("gives per-template counts and, on v3, the provider template id", async () => {
    const res = await call("GET", "/api/v3/reports/analytics/templates", { token: t.globalToken });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(
      res.body.data.templates.map((r: { templateName: string }) => [r.templateName, r]),
    );
    expect(byName.order_update).toMatchObject({ total: 2, delivered: 2, read: 1, deliveryRate: 1, readRate: 0.5 });
    expect(byName.order_update.metaTemplateId).toBe(t.template.providerTemplateId);
    expect(byName.spring_sale).toMatchObject({ total: 1, failed: 1 });
    expect(byName.switchboard_direct_utility).toMatchObject({ total: 1 });
    const v2 = await call("GET", "/api/v2/reports/analytics/templates", { token: t.globalToken });
    expect(v2.body.data.templates[0]).not.toHaveProperty("metaTemplateId");
  });
});

// Orders through the real router: send, follow-up, offset pagination (docs/api/pagination.md), v2 and v3.
import { describe, expect, it } from "vitest";
import { routes } from "@/lib/api/route-table";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { recordApiAnswers } from "@/test/api-answers";
import { call } from "@/test/factory";
import { messagingCustomer, recipient } from "@/test/messaging-fixtures";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const order = (over: Record<string, unknown> = {}) => ({
  currency: "usd",
  items: [
    { name: "Coffee beans", quantity: 2, amount: 12.5 },
    { name: "Mug", quantity: 1, amount: 8 },
  ],
  tax: 2.65,
  shipping: 4,
  discount: 1,
  ...over,
});

describe("orders", () => {
  it("classes the order sends as send routes", () => {
    for (const path of ["/orders/send", "/orders/:orderUid/send"]) {
      expect(routes.find((r) => r.path === path && r.method === "POST")?.limit).toBe("send");
    }
  });

  it.each(["v2", "v3"])("sends an order as an order-details message on %s", async (v) => {
    const t = await messagingCustomer();
    const to = recipient();
    const res = await call("POST", `/api/${v}/orders/send`, {
      token: t.globalToken,
      body: { to, order: order({ reference: "A-1" }) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-message-id")).toMatch(/^wamid\./);
    expect(res.body.data).toMatchObject({ sendRoute: "orders", type: "interactive", status: "accepted" });
    expect(res.body.data.order).toMatchObject({
      reference: "A-1",
      status: "pending",
      currency: "USD",
      subtotal: 33,
      total: 38.65,
      sendCount: 1,
      recipient: to,
      senderId: t.sender.phoneNumber,
    });
    const stored = await db.message.findFirstOrThrow({ where: { id: res.body.data.messageUid } });
    expect(stored.payload).toMatchObject({
      type: "interactive",
      interactive: {
        type: "order_details",
        action: { parameters: { reference_id: "A-1", total_amount: { value: 3865, offset: 100 } } },
      },
    });
    expect(getSimulator()?.acceptedTo(to)).toHaveLength(1);
    const dup = await call("POST", `/api/${v}/orders/send`, {
      token: t.globalToken,
      body: { to, order: order({ reference: "A-1" }) },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error_code).toBe("ORDER_REFERENCE_EXISTS");
  });

  it("follows an order up with a status message from the order's sender", async () => {
    const t = await messagingCustomer();
    const created = await call("POST", "/api/v3/orders/send", {
      token: t.globalToken,
      body: { senderId: t.otherSender.phoneNumber, to: recipient(), order: order() },
    });
    const uid = created.body.data.order.orderUid;
    const shipped = await call("POST", `/api/v3/orders/${uid}/send`, {
      token: t.globalToken,
      body: { status: "shipped" },
    });
    expect(shipped.status).toBe(200);
    expect(shipped.headers.get("x-service-phone-number-id")).toBe(t.otherSender.phoneNumberId);
    expect(shipped.body.data.order).toMatchObject({ status: "shipped", sendCount: 2 });
    const msg = await db.message.findFirstOrThrow({ where: { id: shipped.body.data.messageUid } });
    expect(msg.payload).toMatchObject({
      interactive: { type: "order_status", action: { parameters: { order: { status: "shipped" } } } },
    });
    const resend = await call("POST", `/api/v2/orders/${uid}/send`, { token: t.globalToken, body: {} });
    expect(resend.body.data.order.sendCount).toBe(3);
    // The number-scoped token of the first sender does not reach the other sender's order.
    const scoped = await call("POST", `/api/v3/orders/${uid}/send`, { token: t.scopedToken, body: {} });
    expect(scoped.status).toBe(404);
    expect(scoped.body.error_code).toBe("ORDER_NOT_FOUND");
    const foreign = await messagingCustomer();
    const other = await call("GET", `/api/v3/orders/${uid}`, { token: foreign.globalToken });
    expect(other.status).toBe(404);
    const read = await call("GET", `/api/v3/orders/${uid}`, { token: t.globalToken });
    expect(read.body.data).toMatchObject({ orderUid: uid, status: "shipped", senderId: t.otherSender.phoneNumber });
  });

  it("lists orders with offset pagination (limit 1-100, default 25)", async () => {
    const t = await messagingCustomer();
    for (let i = 0; i < 3; i++) {
      await call("POST", "/api/v3/orders/send", {
        token: t.globalToken,
        body: { to: recipient(), order: order({ reference: `R-${i}` }) },
      });
    }
    const all = await call("GET", "/api/v3/orders", { token: t.globalToken });
    expect(all.status).toBe(200);
    expect(all.body.data.pagination).toEqual({ limit: 25, offset: 0, count: 3, total: 3, has_more: false });
    expect(all.body.data.orders.map((o: { reference: string }) => o.reference)).toEqual(["R-2", "R-1", "R-0"]);
    const page = await call("GET", "/api/v2/orders", { token: t.globalToken, query: { limit: 1, offset: 1 } });
    expect(page.body.data.pagination).toEqual({ limit: 1, offset: 1, count: 1, total: 3, has_more: true });
    expect(page.body.data.items[0].reference).toBe("R-1");
    const bads: Record<string, string | number>[] = [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: "x" }];
    for (const query of bads) {
      const bad = await call("GET", "/api/v3/orders", { token: t.globalToken, query });
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(bad.body.error_code).toBe("VALIDATION_FAILED");
    }
    const invalid = await call("POST", "/api/v3/orders/send", {
      token: t.globalToken,
      body: { to: recipient(), order: order({ items: [] }) },
    });
    expect(invalid.status).toBe(400);
  });
});

// A retry after a crash (docs/idempotency.md "A retry after a crash"): a key whose request
// recorded its message and never stored an answer is, after the lease, answered from that
// message on every send route, as it is now, and nothing is sent again. The state a crash
// leaves is made here by hand (answer gone, lease over); test/send-crash-retry.test.ts kills
// a real process.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { IN_PROGRESS_LEASE_MS } from "@/lib/domains/idempotency/service";
import { getSimulator } from "@/lib/domains/provider/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { contactWrites } from "@/test/conversation-fixtures";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

const sim = () => {
  const s = getSimulator();
  if (!s) throw new Error("tests expect the simulator");
  return s;
};
type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

/** What a process stopped between the provider call and storing the answer leaves, the lease over. */
async function crashedBeforeTheAnswer(t: Customer, key: string) {
  const where = { customerId_key: { customerId: t.customer.id, key } };
  const row = await db.idempotencyKey.update({
    where,
    data: { status: null, response: Prisma.DbNull, createdAt: new Date(Date.now() - IN_PROGRESS_LEASE_MS - 1_000) },
  });
  expect(row.messageId).toMatch(/^msg_/);
  return row.messageId ?? "";
}

/** An answer without its per-request metadata (request id, timing). */
const answer = ({ metadata: _m, ...rest }: Record<string, unknown>) => rest;

const order = { currency: "usd", items: [{ name: "Mug", quantity: 1, amount: 8 }], tax: 0, shipping: 0, discount: 0 };

type Case = {
  name: string;
  /** The request (path and body) for this customer and recipient. */
  request: (t: Customer, to: string) => Promise<{ path: string; body: Record<string, unknown> }>;
};
const cases: Case[] = [
  {
    name: "POST /send",
    request: async (_t, to) => ({
      path: "/api/v3/send",
      body: { to, template: { name: "order_update", components: HELLO_PARAMS } },
    }),
  },
  {
    name: "POST /chat (v3 Direct Send)",
    request: async (_t, to) => ({ path: "/api/v3/chat", body: { to, text: "Your code is 1234", category: "utility" } }),
  },
  {
    name: "POST /messages (the provider's shape)",
    request: async (t, to) => {
      await contactWrites(t.sender, to);
      return { path: "/api/v2/messages", body: { to, type: "text", text: { body: "On its way" } } };
    },
  },
  {
    name: "POST /conversations/{uid}/messages",
    request: async (t, to) => {
      await contactWrites(t.sender, to);
      const list = await call("GET", "/api/v3/conversations", { token: t.globalToken, query: { search: to } });
      const uid = list.body.data.conversations[0].conversationUid;
      return {
        path: `/api/v3/conversations/${uid}/messages`,
        body: { message: { type: "text", text: { body: "Hi" } } },
      };
    },
  },
  {
    name: "POST /orders/send",
    request: async (_t, to) => ({
      path: "/api/v3/orders/send",
      body: { to, order: { ...order, reference: `R-${to}` } },
    }),
  },
];

describe("a retry after a crash, after the lease", () => {
  it.each(cases)("$name answers from the stored message; nothing is sent again", async ({ request }) => {
    const t = await messagingCustomer();
    const to = recipient();
    const { path, body } = await request(t, to);
    const headers = { "Idempotency-Key": `crash-${to}` };
    const first = await call("POST", path, { token: t.globalToken, body, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const uid = await crashedBeforeTheAnswer(t, headers["Idempotency-Key"]);
    expect((await db.message.findFirstOrThrow({ where: { customerId: t.customer.id, recipient: to } })).id).toBe(uid);

    const retry = await call("POST", path, { token: t.globalToken, body, headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("x-service-message-id")).toBe(first.headers.get("x-service-message-id"));
    if (path.endsWith("/orders/send")) {
      const { order: firstOrder, ...firstReceipt } = first.body.data;
      const { order: retryOrder, ...retryReceipt } = retry.body.data;
      expect(retryReceipt).toEqual(firstReceipt);
      expect(retryOrder).toEqual({ ...firstOrder, updatedAt: expect.any(String) });
      expect(await db.order.count({ where: { customerId: t.customer.id } })).toBe(1);
      expect(await db.order.findFirstOrThrow({ where: { customerId: t.customer.id } })).toMatchObject({
        sendCount: 1,
        lastMessageId: uid,
      });
    } else expect(answer(retry.body)).toEqual(answer(first.body));
    expect(sim().acceptedTo(to)).toHaveLength(1);
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: to } })).toBe(1);

    // Now the key's answer: replayed as any stored answer.
    const stored = await db.idempotencyKey.findFirstOrThrow({ where: { customerId: t.customer.id } });
    expect(stored.status).toBe(200);
    const again = await call("POST", path, { token: t.globalToken, body, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(answer(again.body)).toEqual(answer(retry.body));
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });

  it("an order follow-up is not counted again", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const created = await call("POST", "/api/v3/orders/send", { token: t.globalToken, body: { to, order } });
    const uid = created.body.data.order.orderUid;
    const headers = { "Idempotency-Key": `follow-up-${to}` };
    const path = `/api/v3/orders/${uid}/send`;
    const first = await call("POST", path, { token: t.globalToken, body: { status: "shipped" }, headers });
    expect(first.body.data.order).toMatchObject({ sendCount: 2, status: "shipped" });
    await crashedBeforeTheAnswer(t, headers["Idempotency-Key"]);
    const retry = await call("POST", path, { token: t.globalToken, body: { status: "shipped" }, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.data.messageUid).toBe(first.body.data.messageUid);
    expect(retry.body.data.order).toMatchObject({ sendCount: 2, status: "shipped" });
    expect(sim().acceptedTo(to)).toHaveLength(2);
  });

  it("a message interrupted during the provider call is never sent again: 502 with its uid, every time", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const body = { to, template: { name: "order_update", components: HELLO_PARAMS } };
    const headers = { "Idempotency-Key": `interrupted-${to}` };
    expect((await call("POST", "/api/v3/send", { token: t.globalToken, body, headers })).status).toBe(200);
    const uid = await crashedBeforeTheAnswer(t, headers["Idempotency-Key"]);
    // The reconciliation's verdict on a row its process left "sending".
    await db.message.update({ where: { id: uid }, data: { status: "unknown", providerMessageId: null } });
    for (let i = 0; i < 2; i++) {
      const retry = await call("POST", "/api/v3/send", { token: t.globalToken, body, headers });
      expect(retry.status).toBe(502);
      expect(retry.body).toMatchObject({ error_code: "PROVIDER_UNAVAILABLE", details: { messageUid: uid } });
      expect(retry.body.message).toContain("read the message report before resending");
    }
    expect(sim().acceptedTo(to)).toHaveLength(1);
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: to } })).toBe(1);
  });

  it("a message the provider refused leaves nothing sent: the retry sends for real", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const body = { to, type: "text", text: { body: "hi" } };
    const headers = { "Idempotency-Key": `refused-${to}` };
    expect((await call("POST", "/api/v3/messages", { token: t.globalToken, body, headers })).status).toBe(200);
    const uid = await crashedBeforeTheAnswer(t, headers["Idempotency-Key"]);
    await db.message.update({ where: { id: uid }, data: { status: "failed", providerMessageId: null } });
    const retry = await call("POST", "/api/v3/messages", { token: t.globalToken, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(retry.body.messages[0].id).not.toBe(uid);
    expect(sim().acceptedTo(to)).toHaveLength(2);
  });

  it("the key is spent on its message: another body is IDEMPOTENCY_KEY_REUSED", async () => {
    const t = await messagingCustomer();
    const headers = { "Idempotency-Key": `spent-${recipient()}` };
    const to = recipient();
    await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "order_update", components: HELLO_PARAMS } },
      headers,
    });
    await crashedBeforeTheAnswer(t, headers["Idempotency-Key"]);
    const other = recipient();
    const res = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: other, template: { name: "order_update", components: HELLO_PARAMS } },
      headers,
    });
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(sim().acceptedTo(other)).toHaveLength(0);
  });
});

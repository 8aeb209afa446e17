// End to end: the test-event and redeliver endpoints feed the real delivery worker, and a
// receiver on 127.0.0.1 verifies each request with the public `standardwebhooks` package.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { type Receiver, startReceiver } from "@/test/webhook-receiver";
import { startDeliveryWorker } from "./worker";

let c: TestCustomer;
let receiver: Receiver;
let worker: { stop: () => Promise<void> };

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function createWebhook(path: string, over: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/v3/webhooks", {
    token: c.globalToken,
    body: { webhook: { name: path, endpointUrl: receiver.url(path), events: ["message.status.read"], ...over } },
  });
  expect(res.status).toBe(200);
  receiver.route(path, res.body.signingSecret);
  return res.body.data.webhookUid as string;
}

beforeAll(async () => {
  c = await createTestCustomer();
  receiver = await startReceiver();
  worker = startDeliveryWorker({ customerIds: [c.customer.id], pollMs: 50, retryBaseMs: 20, concurrency: 4 });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

describe("test event and redeliver, delivered for real", () => {
  it("sends a verifiable webhook.test with the verification header, and redelivers it with the same webhook-id", async () => {
    const uid = await createWebhook("/test-event", { verificationHeaderKey: "X-Verify", verificationToken: "tok_123" });
    const sent = await call("POST", `/api/v3/webhooks/${uid}/test`, { token: c.globalToken });
    const { deliveryId, eventId } = sent.body.data;

    const first = await waitFor(() => receiver.on("/test-event")[0]);
    expect(first.verified).toBe(true);
    expect(first.webhookId).toBe(deliveryId);
    expect(first.headers["x-verify"]).toBe("tok_123");
    expect(first.payload).toMatchObject({
      id: eventId,
      type: "webhook.test",
      senderId: c.sender.phoneNumber,
      phoneNumberId: c.sender.phoneNumberId,
      data: { webhookUid: uid },
    });

    const succeeded = await waitFor(async () => {
      const res = await call("GET", `/api/v3/webhooks/${uid}/deliveries`, { token: c.globalToken });
      const d = res.body.data.deliveries[0];
      return d?.status === "SUCCEEDED" ? d : undefined;
    });
    expect(succeeded).toMatchObject({ deliveryId, attempts: 1, nextAttemptAt: null });
    expect(succeeded.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null })]);

    const again = await call("POST", `/api/v3/webhooks/${uid}/deliveries/${deliveryId}/redeliver`, {
      token: c.globalToken,
    });
    expect(again.status).toBe(200);
    const second = await waitFor(() => receiver.on("/test-event")[1]);
    expect(second.verified).toBe(true);
    expect(second.webhookId).toBe(deliveryId);
    expect(JSON.parse(second.body)).toEqual(JSON.parse(first.body));
    await waitFor(async () => {
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      return row.status === "SUCCEEDED" && row.attempts === 2 ? row : undefined;
    });
  });

  it("an INACTIVE destination receives nothing", async () => {
    const uid = await createWebhook("/inactive");
    // A delivery due in 1.5 s (as the event pipeline would queue it), then deactivate.
    const eventId = `evt_e2e_${Date.now()}`;
    const deliveryId = `msg_e2e_${Date.now()}`;
    await db.webhookEvent.create({
      data: {
        id: eventId,
        customerId: c.customer.id,
        senderId: c.sender.id,
        type: "message.status.read",
        payload: { id: eventId, type: "message.status.read", data: {} },
      },
    });
    await db.webhookDelivery.create({
      data: { id: deliveryId, eventId, destinationId: uid, nextAttemptAt: new Date(Date.now() + 1_500) },
    });
    await call("POST", `/api/v3/webhooks/${uid}`, { token: c.globalToken, body: { webhook: { status: "INACTIVE" } } });
    const refused = await call("POST", `/api/v3/webhooks/${uid}/test`, { token: c.globalToken });
    expect(refused.body.error_code).toBe("VALIDATION_FAILED");
    // Due in 1.5 s: the worker claims it then and cancels it unsent.
    await waitFor(async () => {
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      return row.status === "CANCELLED" ? row : undefined;
    });
    expect(receiver.on("/inactive")).toHaveLength(0);
  });

  it("the SSRF guard also holds at delivery time", async () => {
    const uid = await createWebhook("/ssrf", { retryEnabled: false });
    const before = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "false";
    resetEnvCache();
    try {
      const sent = await call("POST", `/api/v3/webhooks/${uid}/test`, { token: c.globalToken });
      const row = await waitFor(async () => {
        const r = await db.webhookDelivery.findUniqueOrThrow({ where: { id: sent.body.data.deliveryId } });
        return r.status === "FAILED" ? r : undefined;
      });
      expect(row.lastError ?? "").toMatch(/https|public addresses/);
      expect(receiver.on("/ssrf")).toHaveLength(0);
    } finally {
      if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = before;
      resetEnvCache();
    }
  });
});

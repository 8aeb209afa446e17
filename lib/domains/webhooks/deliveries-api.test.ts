// Delivery log, redelivery, test events and "INACTIVE stops deliveries" through the router.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

let c: TestCustomer;
let other: TestCustomer;

const createWebhook = async (
  token: string,
  over: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) => {
  const res = await call("POST", "/api/v3/webhooks", {
    token,
    body: {
      webhook: { name: "Log", endpointUrl: "http://127.0.0.1:9999/in", events: ["message.status.read"], ...over },
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return res.body.data.webhookUid as string;
};

const sendTest = (uid: string, token = c.globalToken) => call("POST", `/api/v3/webhooks/${uid}/test`, { token });
const deliveries = (uid: string, query: Record<string, string | number> = {}, token = c.globalToken) =>
  call("GET", `/api/v3/webhooks/${uid}/deliveries`, { token, query });

beforeAll(async () => {
  [c, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
});

describe("test event", () => {
  it("queues one signed-to-be webhook.test event for that destination only", async () => {
    const uid = await createWebhook(c.globalToken);
    const sibling = await createWebhook(c.globalToken, { events: ["message.status.read"] });
    const started = Date.now();
    const res = await sendTest(uid);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Test event queued");
    const { eventId, deliveryId } = res.body.data;
    expect(res.body.data.webhookUid).toBe(uid);

    const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: eventId }, include: { deliveries: true } });
    expect(event).toMatchObject({ customerId: c.customer.id, senderId: c.sender.id, type: "webhook.test" });
    expect(event.payload).toMatchObject({
      id: eventId,
      type: "webhook.test",
      senderId: c.sender.phoneNumber,
      phoneNumberId: c.sender.phoneNumberId,
      data: { message: expect.stringContaining("test event"), webhookUid: uid },
    });
    const payload = event.payload as { createdAt: string };
    expect(Object.keys(event.payload as object).sort()).toEqual(
      ["createdAt", "data", "id", "phoneNumberId", "senderId", "type"].sort(),
    );
    expect(new Date(payload.createdAt).toISOString()).toBe(payload.createdAt);
    expect(event.deliveries).toHaveLength(1);
    const [delivery] = event.deliveries;
    expect(delivery).toMatchObject({ id: deliveryId, destinationId: uid, status: "PENDING", attempts: 0 });
    expect(delivery?.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(delivery?.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(started - 5_000);
    expect(await db.webhookDelivery.count({ where: { destinationId: sibling } })).toBe(0);

    // A second test is a new event with its own webhook-id.
    const again = await sendTest(uid);
    expect(again.body.data.deliveryId).not.toBe(deliveryId);
    expect(again.body.data.eventId).not.toBe(eventId);
  });

  it("works on v2 with the token in the body and no content type for an empty body", async () => {
    const uid = await createWebhook(c.globalToken);
    const noBody = await call("POST", `/api/v2/webhooks/${uid}/test`, { token: c.globalToken });
    expect(noBody.status).toBe(200);
    const bodyToken = await call("POST", `/api/v2/webhooks/${uid}/test`, { body: { authToken: c.globalToken } });
    expect(bodyToken.status).toBe(200);
  });

  it("is refused for an INACTIVE destination and an unknown uid", async () => {
    const uid = await createWebhook(c.globalToken, { status: "INACTIVE" });
    const res = await sendTest(uid);
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain("INACTIVE");
    expect(await db.webhookDelivery.count({ where: { destinationId: uid } })).toBe(0);
    const missing = await sendTest("wh_missing");
    expect(missing.status).toBe(404);
    expect(missing.body.error_code).toBe("WEBHOOK_NOT_FOUND");
  });
});

describe("delivery log", () => {
  it("lists deliveries newest first with their attempts, status filter and pagination", async () => {
    const uid = await createWebhook(c.globalToken);
    const first = (await sendTest(uid)).body.data.deliveryId as string;
    const second = (await sendTest(uid)).body.data.deliveryId as string;
    // What the worker writes after two failed attempts and a final failure.
    const t0 = new Date(Date.now() - 60_000);
    await db.webhookAttempt.createMany({
      data: [
        { deliveryId: first, attempt: 1, startedAt: t0, statusCode: 500, latencyMs: 120, responseExcerpt: "oops" },
        {
          deliveryId: first,
          attempt: 2,
          startedAt: new Date(t0.getTime() + 30_000),
          statusCode: null,
          latencyMs: 10_000,
          error: "timeout after 10000 ms",
        },
      ],
    });
    await db.webhookDelivery.update({
      where: { id: first },
      data: { status: "FAILED", attempts: 2, lastStatus: null, lastError: "timeout after 10000 ms" },
    });

    const res = await deliveries(uid);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Webhook deliveries retrieved");
    const data = res.body.data;
    expect(data.webhookUid).toBe(uid);
    expect(data.items).toEqual(data.deliveries);
    expect(data.deliveries.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([second, first]);
    expect(data.pagination).toEqual({ page: 1, limit: 50, total: 2, totalPages: 1, count: 2, hasMore: false });
    const [pending, failed] = data.deliveries;
    expect(pending).toMatchObject({ status: "PENDING", attempts: 0, eventType: "webhook.test", attemptLog: [] });
    expect(typeof pending.nextAttemptAt).toBe("string");
    expect(failed).toMatchObject({
      deliveryId: first,
      status: "FAILED",
      attempts: 2,
      nextAttemptAt: null,
      lastError: "timeout after 10000 ms",
      attemptLog: [
        {
          attempt: 1,
          startedAt: t0.toISOString(),
          statusCode: 500,
          latencyMs: 120,
          error: null,
          responseExcerpt: "oops",
        },
        { attempt: 2, statusCode: null, latencyMs: 10_000, error: "timeout after 10000 ms", responseExcerpt: null },
      ],
    });

    const onlyFailed = await deliveries(uid, { status: "FAILED" });
    expect(onlyFailed.body.data.deliveries.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([first]);
    const page2 = await deliveries(uid, { limit: 1, page: 2 });
    expect(page2.body.data.deliveries.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([first]);
    expect(page2.body.data.pagination).toMatchObject({ page: 2, limit: 1, total: 2, totalPages: 2, hasMore: false });
    const badStatus = await deliveries(uid, { status: "LOST" });
    expect(badStatus.body.error_code).toBe("VALIDATION_FAILED");
    const empty = await deliveries(await createWebhook(c.globalToken));
    expect(empty.body.data).toMatchObject({ deliveries: [], items: [], pagination: { total: 0, hasMore: false } });
  });
});

describe("redeliver", () => {
  it("puts a finished delivery back in the queue with the same id", async () => {
    const uid = await createWebhook(c.globalToken);
    const deliveryId = (await sendTest(uid)).body.data.deliveryId as string;
    const later = new Date(Date.now() + 3_600_000);
    await db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: "FAILED", attempts: 6, nextAttemptAt: later, lastStatus: 503 },
    });
    const before = Date.now();
    const res = await call("POST", `/api/v3/webhooks/${uid}/deliveries/${deliveryId}/redeliver`, {
      token: c.globalToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Delivery queued for redelivery");
    expect(res.body.data).toMatchObject({ deliveryId, status: "PENDING", attempts: 6 });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row.status).toBe("PENDING");
    expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(await db.webhookDelivery.count({ where: { destinationId: uid } })).toBe(1);
  });

  it("refuses unknown deliveries, another destination's delivery and an INACTIVE destination", async () => {
    const uid = await createWebhook(c.globalToken);
    const otherUid = await createWebhook(c.globalToken);
    const foreign = (await sendTest(otherUid)).body.data.deliveryId as string;
    const path = (w: string, d: string) => `/api/v2/webhooks/${w}/deliveries/${d}/redeliver`;

    const unknown = await call("POST", path(uid, "msg_unknown"), { token: c.globalToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe("NOT_FOUND");
    const malformed = await call("POST", path(uid, "%00"), { token: c.globalToken });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error_code).toBe("NOT_FOUND");
    const crossed = await call("POST", path(uid, foreign), { token: c.globalToken });
    expect(crossed.status).toBe(404);

    const own = (await sendTest(uid)).body.data.deliveryId as string;
    await db.webhookDelivery.update({ where: { id: own }, data: { status: "FAILED" } });
    await call("POST", `/api/v2/webhooks/${uid}`, { token: c.globalToken, body: { webhook: { status: "INACTIVE" } } });
    const inactive = await call("POST", path(uid, own), { token: c.globalToken });
    expect(inactive.status).toBe(400);
    expect(inactive.body.error_code).toBe("VALIDATION_FAILED");
    expect(inactive.body.message).toContain("INACTIVE");
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: own } })).status).toBe("FAILED");
  });
});

describe("setting INACTIVE stops deliveries", () => {
  it("cancels the destination's pending deliveries in the update, and only those", async () => {
    const uid = await createWebhook(c.globalToken);
    const keep = await createWebhook(c.globalToken);
    const p1 = (await sendTest(uid)).body.data.deliveryId as string;
    const p2 = (await sendTest(uid)).body.data.deliveryId as string;
    const done = (await sendTest(uid)).body.data.deliveryId as string;
    const untouched = (await sendTest(keep)).body.data.deliveryId as string;
    await db.webhookDelivery.update({ where: { id: done }, data: { status: "SUCCEEDED", attempts: 1 } });

    const res = await call("POST", `/api/v3/webhooks/${uid}`, {
      token: c.globalToken,
      body: { webhook: { status: "INACTIVE" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("INACTIVE");

    const status = async (id: string) => (await db.webhookDelivery.findUniqueOrThrow({ where: { id } })).status;
    expect(await status(p1)).toBe("CANCELLED");
    expect(await status(p2)).toBe("CANCELLED");
    expect(await status(done)).toBe("SUCCEEDED");
    expect(await status(untouched)).toBe("PENDING");
    const pendingDue = await db.webhookDelivery.count({
      where: { destinationId: uid, status: "PENDING", nextAttemptAt: { lte: new Date() } },
    });
    expect(pendingDue).toBe(0);
    const log = await deliveries(uid, { status: "CANCELLED" });
    expect(log.body.data.pagination.total).toBe(2);

    // Back to ACTIVE: nothing cancelled comes back by itself, new events flow again.
    await call("POST", `/api/v3/webhooks/${uid}`, { token: c.globalToken, body: { webhook: { status: "ACTIVE" } } });
    expect(await status(p1)).toBe("CANCELLED");
    expect((await sendTest(uid)).status).toBe(200);
  });
});

describe("tenant isolation", () => {
  it("another customer cannot read the log, redeliver or send tests", async () => {
    const uid = await createWebhook(c.globalToken);
    const deliveryId = (await sendTest(uid)).body.data.deliveryId as string;
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "FAILED" } });
    for (const token of [other.globalToken, other.scopedToken]) {
      for (const res of [
        await deliveries(uid, {}, token),
        await call("POST", `/api/v3/webhooks/${uid}/deliveries/${deliveryId}/redeliver`, { token }),
        await sendTest(uid, token),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error_code).toBe("WEBHOOK_NOT_FOUND");
      }
    }
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("FAILED");
    expect(await db.webhookDelivery.count({ where: { destinationId: uid } })).toBe(1);
  });

  it("a scoped token cannot reach the other sender's destination log", async () => {
    const uid = await createWebhook(c.globalToken, {}, { senderId: c.otherSender.phoneNumber });
    const res = await deliveries(uid, {}, c.scopedToken);
    expect(res.body.error_code).toBe("WEBHOOK_NOT_FOUND");
    const named = await deliveries(uid, { senderId: c.otherSender.phoneNumber }, c.scopedToken);
    expect(named.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    const global = await deliveries(uid, { senderId: c.otherSender.phoneNumber });
    expect(global.status).toBe(200);
  });

  it("needs the webhooks feature", async () => {
    const starter = await createTestCustomer({ plan: "starter" });
    const res = await call("POST", "/api/v3/webhooks/any/test", { token: starter.globalToken });
    expect(res.body.error_code).toBe("FEATURE_NOT_AVAILABLE");
  });
});

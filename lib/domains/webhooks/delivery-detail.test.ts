// The delivery log's detail view (lib/domains/webhooks/delivery-detail.ts): payload, masked
// headers and every attempt, for the principal's own webhook and sender only.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { getDeliveryDetail } from "./delivery-detail";

let c: TestCustomer;
let other: TestCustomer;
let uid: string;
let deliveryId: string;
let eventId: string;

// A number-scoped caller is the system scoped to one sender (a member cannot be: docs/members.md).
const principal = (t: TestCustomer, scopedSenderId: string | null = null): Principal =>
  scopedSenderId ? systemPrincipal(t.customer.id, scopedSenderId) : memberPrincipal(t.customer.id);

beforeAll(async () => {
  [c, other] = await Promise.all([createTestCustomer(), createTestCustomer()]);
  const created = await call("POST", "/api/v3/webhooks", {
    token: c.globalToken,
    body: {
      webhook: {
        name: "Detail",
        endpointUrl: "http://127.0.0.1:9999/in",
        events: ["message.status.read"],
        verificationHeaderKey: "X-Verify",
        verificationToken: "top-secret-token",
      },
    },
  });
  expect(created.status).toBe(200);
  uid = created.body.data.webhookUid;
  const test = await call("POST", `/api/v3/webhooks/${uid}/test`, { token: c.globalToken });
  expect(test.status).toBe(200);
  ({ deliveryId, eventId } = test.body.data);
  await db.webhookAttempt.createMany({
    data: [
      {
        deliveryId,
        attempt: 1,
        startedAt: new Date("2026-01-01T10:00:00Z"),
        statusCode: 500,
        latencyMs: 120,
        error: "HTTP 500",
        responseExcerpt: "oops",
      },
      {
        deliveryId,
        attempt: 2,
        startedAt: new Date("2026-01-01T10:00:05Z"),
        statusCode: 200,
        latencyMs: 35,
        responseExcerpt: "ok",
      },
    ],
  });
});

describe("getDeliveryDetail", () => {
  it("returns the payload as sent, the headers with secrets masked and each attempt in order", async () => {
    const detail = await getDeliveryDetail(principal(c), c.sender, uid, deliveryId);
    const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
    expect(detail.deliveryId).toBe(deliveryId);
    expect(detail.eventType).toBe("webhook.test");
    expect(detail.payload).toEqual(event.payload);
    const names = detail.requestHeaders.map((h) => h.name);
    expect(names).toEqual([
      "content-type",
      "user-agent",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "x-verify",
    ]);
    expect(detail.requestHeaders.find((h) => h.name === "webhook-id")?.value).toBe(deliveryId);
    expect(JSON.stringify(detail)).not.toContain("top-secret-token");
    expect(detail.attemptLog).toEqual([
      {
        attempt: 1,
        startedAt: "2026-01-01T10:00:00.000Z",
        statusCode: 500,
        latencyMs: 120,
        error: "HTTP 500",
        responseExcerpt: "oops",
      },
      {
        attempt: 2,
        startedAt: "2026-01-01T10:00:05.000Z",
        statusCode: 200,
        latencyMs: 35,
        error: null,
        responseExcerpt: "ok",
      },
    ]);
  });

  it("is tenant-scoped: another customer, another sender or a token bound to another sender sees nothing", async () => {
    await expect(getDeliveryDetail(principal(other), other.sender, uid, deliveryId)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // Another customer naming this customer's sender is refused before any read.
    await expect(getDeliveryDetail(principal(other), c.sender, uid, deliveryId)).rejects.toMatchObject({
      code: "SENDER_NOT_FOUND",
    });
    await expect(getDeliveryDetail(principal(c), c.otherSender, uid, deliveryId)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(getDeliveryDetail(principal(c, c.otherSender.id), c.sender, uid, deliveryId)).rejects.toMatchObject({
      code: "TOKEN_SCOPE_NOT_ALLOWED",
    });
  });

  it("answers NOT_FOUND for a delivery of another webhook of the same sender", async () => {
    const sibling = await call("POST", "/api/v3/webhooks", {
      token: c.globalToken,
      body: { webhook: { name: "Sibling", endpointUrl: "http://127.0.0.1:9999/x", events: ["message.status.read"] } },
    });
    expect(sibling.status).toBe(200);
    await expect(
      getDeliveryDetail(principal(c), c.sender, sibling.body.data.webhookUid, deliveryId),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

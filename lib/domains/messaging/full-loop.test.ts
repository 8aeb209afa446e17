// The whole loop against the built-in simulator: a send, then signed provider status
// callbacks, billing record, ledger debit and a signed webhook event at a local receiver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { setRate } from "@/lib/domains/billing/rate-card";
import { getSimulator } from "@/lib/domains/provider/client";
import { startDeliveryWorker } from "@/lib/domains/webhooks/worker";
import { startCallbackProcessor } from "@/lib/ingest/processor";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { type Receiver, startReceiver } from "@/test/webhook-receiver";

let receiver: Receiver;
let stops: (() => Promise<void>)[] = [];
let t: Awaited<ReturnType<typeof messagingCustomer>>;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await messagingCustomer();
  await setRate({ category: "marketing", rate: 0.0625, customerId: t.customer.id });
  const hook = await call("POST", "/api/v3/webhooks", {
    token: t.globalToken,
    body: {
      webhook: {
        name: "loop",
        endpointUrl: receiver.url("/loop"),
        events: ["message.status.sent", "message.status.delivered", "message.status.read", "message.status.failed"],
      },
    },
  });
  expect(hook.status).toBe(200);
  receiver.route("/loop", hook.body.signingSecret);
  stops = [
    startCallbackProcessor({ pollMs: 50 }).stop,
    startDeliveryWorker({ retryBaseMs: 50, pollMs: 20, leaseMarginMs: 2000, customerIds: [t.customer.id] }).stop,
  ];
});

afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
  await receiver.close();
});

describe("send -> provider callbacks -> billing, ledger and webhook events", () => {
  it("bills a read marketing message once and notifies the customer's endpoint", async () => {
    const to = recipient();
    getSimulator()?.forceOutcome(to, "read");
    const res = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "spring_sale", components: HELLO_PARAMS } },
    });
    expect(res.status).toBe(200);
    const messageId = res.headers.get("x-service-message-id") ?? "";

    await expect
      .poll(async () => (await db.billingRecord.findUnique({ where: { messageId } }))?.status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe("read");
    const record = await db.billingRecord.findUniqueOrThrow({ where: { messageId } });
    expect(record).toMatchObject({
      customerId: t.customer.id,
      billable: true,
      billingClass: "payable",
      pricingCategory: "marketing",
    });
    expect(Number(record.rate)).toBe(0.0625);
    const debits = await db.billingTransaction.findMany({ where: { customerId: t.customer.id, type: "debit" } });
    expect(debits).toHaveLength(1);
    expect(debits[0]?.billingRecordId).toBe(record.id);
    expect(Number(debits[0]?.amount)).toBe(0.0625);

    await expect
      .poll(
        () =>
          receiver
            .on("/loop")
            .filter((r) => r.payload?.data?.messageId === messageId)
            .map((r) => r.payload.type)
            .sort(),
        {
          timeout: 10_000,
          interval: 100,
        },
      )
      .toEqual(["message.status.delivered", "message.status.read", "message.status.sent"]);
    expect(receiver.on("/loop").every((r) => r.verified)).toBe(true);

    const report = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { messageId } });
    expect(report.body.data.messages[0]).toMatchObject({ status: "read", billable: true, rate: 0.0625 });
    expect(report.body.data.messages[0].readAt).not.toBeNull();
  });

  it("reports a failed message as failed, without a debit", async () => {
    const to = await engagedRecipient(t.sender);
    getSimulator()?.forceOutcome(to, "failed");
    const res = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to, text: "hello" } });
    const messageId = res.headers.get("x-service-message-id") ?? "";
    await expect
      .poll(async () => (await db.billingRecord.findUnique({ where: { messageId } }))?.status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe("failed");
    await expect
      .poll(
        () =>
          receiver
            .on("/loop")
            .some((r) => r.payload?.type === "message.status.failed" && r.payload.data.messageId === messageId),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    const report = await call("GET", "/api/v3/reports/messages", { token: t.globalToken, query: { messageId } });
    expect(report.body.data.messages[0]).toMatchObject({ status: "failed", errorCode: 131026 });
    const record = await db.billingRecord.findUniqueOrThrow({ where: { messageId } });
    expect(await db.billingTransaction.count({ where: { billingRecordId: record.id } })).toBe(0);
  });

  it("approves a created template through the simulator's signed template callback", async () => {
    const hook = await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      body: {
        webhook: { name: "templates", endpointUrl: receiver.url("/templates"), events: ["template.status_update"] },
      },
    });
    receiver.route("/templates", hook.body.signingSecret);
    const created = await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      body: {
        template: {
          name: "loop_notice",
          category: "UTILITY",
          components: [{ type: "BODY", text: "Hi {{1}}, welcome.", example: { body_text: [["Ana"]] } }],
        },
      },
    });
    expect(created.body.data.status).toBe("PENDING");
    const uid = created.headers.get("x-service-template-uid") ?? "";
    await expect
      .poll(async () => (await call("GET", `/api/v3/templates/${uid}`, { token: t.globalToken })).body.data.status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe("APPROVED");
    await expect
      .poll(() => receiver.on("/templates").some((r) => r.verified && r.payload?.type === "template.status_update"), {
        timeout: 10_000,
      })
      .toBe(true);
    const send = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "loop_notice", components: HELLO_PARAMS } },
    });
    expect(send.status).toBe(200);
  });
});

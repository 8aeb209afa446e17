// Provider callbacks in: signature, handshake, validation, billing records, ledger and
// events (idempotent under replay, reordering and concurrent processing).
import { randomInt } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { setRate } from "@/lib/domains/billing/rate-card";
import { signProviderBody, verifyProviderSignature } from "@/lib/domains/provider/callbacks/signature";
import { startDeliveryWorker } from "@/lib/domains/webhooks/worker";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { handleProviderWebhook } from "@/lib/http/provider-webhook";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { createDestination, fixture, mid, postProvider, sentMessages, waitFor } from "./events-helpers";
import { createTestCustomer, type TestCustomer } from "./factory";
import { type Receiver, startReceiver } from "./webhook-receiver";

const STATUS_KEYS = ["sent", "delivered", "read", "failed"].map((s) => `message.status.${s}`);
const newTag = () => `${randomInt(100_000, 999_999)}t`;

async function drain() {
  for (let i = 0; i < 50; i++) {
    const r = await processPendingCallbacks(200);
    if (r.callbacks === 0) return;
  }
}

async function counts(customerId: string) {
  const [records, debits, events] = await Promise.all([
    db.billingRecord.count({ where: { customerId } }),
    db.billingTransaction.count({ where: { customerId, type: "debit" } }),
    db.webhookEvent.count({ where: { customerId } }),
  ]);
  return { records, debits, events };
}

describe("provider callback endpoint", () => {
  it("matches a known signature vector and rejects other signatures", () => {
    const body = `{"object":"whatsapp_business_account","entry":[]}`;
    const expected = "sha256=8b0a33203ac7ef3295ce98640df4d6416b0c20ff51da09e6630e6ecbb5fa2e4b";
    expect(signProviderBody(body, "test_app_secret_do_not_use")).toBe(expected);
    expect(verifyProviderSignature(body, expected, "test_app_secret_do_not_use")).toBe(true);
    expect(verifyProviderSignature(`${body} `, expected, "test_app_secret_do_not_use")).toBe(false);
    expect(verifyProviderSignature(body, null)).toBe(false);
  });

  it("answers the subscription handshake only with the right verify token", async () => {
    const get = (q: string) => handleProviderWebhook(new Request(`http://localhost/api/provider/webhook?${q}`));
    const good = await get("hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=test_verify_token");
    expect(good.status).toBe(200);
    expect(await good.text()).toBe("1158201444");
    expect((await get("hub.mode=subscribe&hub.challenge=1&hub.verify_token=nope")).status).toBe(403);
    expect((await get("hub.challenge=1&hub.verify_token=test_verify_token")).status).toBe(403);
  });

  it("refuses a missing or wrong signature with 401 and stores nothing", async () => {
    const marker = newTag();
    const raw = JSON.stringify({ object: "whatsapp_business_account", entry: [], marker });
    expect((await postProvider(raw, null)).status).toBe(401);
    expect((await postProvider(raw, signProviderBody(raw, "another_secret"))).status).toBe(401);
    expect((await postProvider(raw, "sha256=00")).status).toBe(401);
    expect(await db.providerCallback.count({ where: { body: { contains: marker } } })).toBe(0);
    expect((await postProvider(raw)).status).toBe(200);
    expect(await db.providerCallback.count({ where: { body: { contains: marker } } })).toBe(1);
  });

  it("is served by the lean server at /api/provider/webhook", async () => {
    const server = createLeanServer(mounts);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/provider/webhook`;
    try {
      const hs = await fetch(`${base}?hub.mode=subscribe&hub.challenge=abc&hub.verify_token=test_verify_token`);
      expect([hs.status, await hs.text()]).toEqual([200, "abc"]);
      const marker = newTag();
      const raw = JSON.stringify({ object: "whatsapp_business_account", entry: [], marker });
      const post = (sig: string) =>
        fetch(base, {
          method: "POST",
          body: raw,
          headers: { "content-type": "application/json", "x-hub-signature-256": sig },
        });
      expect((await post("sha256=bad")).status).toBe(401);
      expect((await post(signProviderBody(raw))).status).toBe(200);
      expect(await db.providerCallback.count({ where: { body: { contains: marker } } })).toBe(1);
    } finally {
      server.close();
    }
  });

  it("refuses a malformed payload with 400 and stores nothing", async () => {
    const marker = newTag();
    const bad = [
      `{"object":"whatsapp_business_account","entry":[ ${marker}`,
      JSON.stringify({ marker }),
      JSON.stringify({
        object: "whatsapp_business_account",
        marker,
        entry: [
          {
            id: "1",
            changes: [
              {
                field: "messages",
                value: { metadata: { phone_number_id: "1" }, statuses: [{ status: "sent", timestamp: "1" }] },
              },
            ],
          },
        ],
      }),
    ];
    for (const raw of bad) expect((await postProvider(raw)).status).toBe(400);
    expect(await db.providerCallback.count({ where: { body: { contains: marker } } })).toBe(0);
  });
});

describe("ingestion and delivery", () => {
  let t: TestCustomer;
  let receiver: Receiver;
  let worker: { stop: () => Promise<void> };

  beforeAll(async () => {
    t = await createTestCustomer();
    await setRate({ category: "marketing", rate: 0.05, customerId: t.customer.id });
    await setRate({ category: "utility", rate: 0.02, customerId: t.customer.id });
    await setRate({ category: "service", rate: 0.01, customerId: t.customer.id });
    receiver = await startReceiver();
    worker = startDeliveryWorker({ retryBaseMs: 50, pollMs: 20, leaseMarginMs: 2000, customerIds: [t.customer.id] });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
  });

  it("turns a signed provider batch into exact records, ledger and events for the subscribed ACTIVE destinations only", async () => {
    const tag = newTag();
    await sentMessages(t.sender, tag);
    const all = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/all"),
      events: [...STATUS_KEYS, "message.inbound.text", "template.status_update"],
      verification: { header: "X-Verify-Token", token: "verify-me" },
    });
    const readOnly = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/read"),
      events: ["message.status.read"],
    });
    const inactive = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/inactive"),
      events: STATUS_KEYS,
      status: "INACTIVE",
    });
    const other = await createDestination({
      customerId: t.customer.id,
      senderId: t.otherSender.id,
      url: receiver.url("/other"),
      events: STATUS_KEYS,
    });
    receiver.route("/all", all.secret);
    receiver.route("/read", readOnly.secret);
    receiver.route("/inactive", inactive.secret);
    receiver.route("/other", other.secret);

    const files = [
      "01_status_sent",
      "02_status_delivered",
      "03_status_read",
      "04_status_failed",
      "05_status_batch",
      "06_inbound_text",
      "07_inbound_interactive_button_reply",
      "08_inbound_interactive_list_reply",
      "09_template_status_approved",
      "10_template_status_rejected",
    ];
    for (const f of files) {
      expect((await postProvider(fixture(`${f}.json`, t.sender, tag))).status).toBe(200);
      await drain(); // one at a time, as the provider sends them
    }

    const A = mid(tag, "HBgLMTU1NTEyMzAwMDEVAgARGBJBMUIyQzNENEU1RjZBN0I4QzkA");
    const B = mid(tag, "HBgLMTU1NTEyMzAwMDIVAgARGBIwRjFFMkQzQzRCNUE2OTc4OEYA");
    const C = mid(tag, "HBgLMTU1NTEyMzAwMDMVAgARGBI5QThCN0M2RDVFNEYzQTJCMUMA");
    const D = mid(tag, "HBgLMTU1NTEyMzAwMDEVAgARGBI3N0FBODhCQjk5Q0MwMEREMTEA");
    const records = await db.billingRecord.findMany({
      where: { customerId: t.customer.id, messageId: { startsWith: `wamid.${tag}.` } },
    });
    const by = new Map(records.map((r) => [r.messageId, r]));
    expect(records).toHaveLength(4);
    expect(by.get(A)).toMatchObject({
      status: "read",
      billable: true,
      billingClass: "payable",
      pricingCategory: "marketing",
      templateType: "marketing",
      pricingModel: "PMP",
      pricingType: "regular",
      senderId: t.sender.id,
      recipientId: "15551230001",
    });
    expect(by.get(A)?.rate.toString()).toBe("0.05");
    expect(by.get(A)?.sentAt?.toISOString()).toBe("2026-01-01T10:00:00.000Z");
    expect(by.get(A)?.deliveredAt && by.get(A)?.readAt).toBeTruthy();
    expect(by.get(B)).toMatchObject({ status: "failed", errorCode: 131049, billable: true, templateType: "utility" });
    expect(by.get(C)).toMatchObject({
      status: "read",
      billable: false,
      billingClass: "free",
      templateType: "service",
      pricingType: "free_customer_service",
    });
    expect(by.get(C)?.rate.toString()).toBe("0");
    expect(by.get(D)).toMatchObject({ status: "delivered", billable: true, pricingCategory: "utility" });

    const debits = await db.billingTransaction.findMany({ where: { customerId: t.customer.id, type: "debit" } });
    const debitOf = (id: string | undefined) => debits.filter((d) => d.billingRecordId === id);
    expect(debitOf(by.get(A)?.id).map((d) => d.amount.toString())).toEqual(["0.05"]);
    expect(debitOf(by.get(D)?.id).map((d) => d.amount.toString())).toEqual(["0.02"]);
    expect(debitOf(by.get(B)?.id)).toHaveLength(0);
    expect(debitOf(by.get(C)?.id)).toHaveLength(0);

    const templates = await db.template.findMany({ where: { customerId: t.customer.id } });
    expect(templates.map((x) => [x.name, x.status]).sort()).toEqual([
      ["order_shipped", "APPROVED"],
      ["spring_promo", "REJECTED"],
    ]);

    // /all: A sent, delivered, read; B failed; C sent, read; D delivered; inbound text; 2 templates = 10.
    const deliveries = await waitFor(
      async () => {
        const rows = await db.webhookDelivery.findMany({
          where: { destination: { customerId: t.customer.id } },
          include: { event: true },
        });
        if (process.env.DEBUG_EVENTS)
          console.log(rows.map((r) => [r.status, r.attempts, r.lastStatus, r.lastError, r.event.type]));
        return rows.length === 12 && rows.every((r) => r.status === "SUCCEEDED") && rows;
      },
      15_000,
      "12 deliveries",
    );
    await waitFor(() => receiver.on("/all").length >= 10 && receiver.on("/read").length >= 2);
    const allGot = receiver.on("/all");
    if (process.env.DEBUG_EVENTS) {
      const att = await db.webhookAttempt.findMany({ where: { delivery: { destinationId: all.destination.id } } });
      console.log(
        allGot.map((r) => [r.webhookId, r.payload?.type, r.payload?.data?.messageId, r.at]),
        att.length,
      );
    }
    expect(allGot.every((r) => r.verified)).toBe(true);
    expect(allGot.map((r) => r.payload.type).sort()).toEqual([
      "message.inbound.text",
      "message.status.delivered",
      "message.status.delivered",
      "message.status.failed",
      "message.status.read",
      "message.status.read",
      "message.status.sent",
      "message.status.sent",
      "template.status_update",
      "template.status_update",
    ]);
    expect(allGot.every((r) => r.headers["x-verify-token"] === "verify-me")).toBe(true);
    expect(new Set(allGot.map((r) => r.webhookId))).toEqual(
      new Set(deliveries.filter((d) => d.destinationId === all.destination.id).map((d) => d.id)),
    );
    const readEvent = allGot.find((r) => r.payload.type === "message.status.read" && r.payload.data.messageId === A);
    expect(readEvent?.payload).toMatchObject({
      senderId: t.sender.phoneNumber,
      phoneNumberId: t.sender.phoneNumberId,
      data: { status: "read", previousStatus: "delivered" },
    });
    const readGot = receiver.on("/read");
    expect(readGot.every((r) => r.verified)).toBe(true);
    expect(readGot.map((r) => r.payload.data.messageId).sort()).toEqual([A, C].sort());
    expect(receiver.on("/inactive")).toHaveLength(0);
    expect(receiver.on("/other")).toHaveLength(0);

    // The whole batch again, and in reverse order: nothing new anywhere.
    const before = await counts(t.customer.id);
    for (const f of [...files].reverse())
      expect((await postProvider(fixture(`${f}.json`, t.sender, tag))).status).toBe(200);
    await drain();
    expect(await counts(t.customer.id)).toEqual(before);
    expect(await db.webhookDelivery.count({ where: { destination: { customerId: t.customer.id } } })).toBe(12);
  });

  it("applies statuses that arrive out of order without going backwards", async () => {
    const tag = newTag();
    await sentMessages(t.sender, tag);
    const before = await counts(t.customer.id);
    for (const f of ["03_status_read", "02_status_delivered", "01_status_sent"]) {
      await postProvider(fixture(`${f}.json`, t.sender, tag));
      await drain();
    }
    const record = await db.billingRecord.findUniqueOrThrow({
      where: { messageId: mid(tag, "HBgLMTU1NTEyMzAwMDEVAgARGBJBMUIyQzNENEU1RjZBN0I4QzkA") },
    });
    expect(record).toMatchObject({ status: "read", billable: true, pricingCategory: "marketing" });
    expect(record.rate.toString()).toBe("0.05");
    const events = await db.webhookEvent.findMany({
      where: { customerId: t.customer.id, createdAt: { gte: record.createdAt } },
    });
    expect(events.map((e) => e.type)).toEqual(["message.status.read"]);
    expect(events[0]?.payload).toMatchObject({ data: { previousStatus: null } });
    expect(await counts(t.customer.id)).toEqual({
      records: before.records + 1,
      debits: before.debits + 1,
      events: before.events + 1,
    });
  });

  it("a billable message is free while only sent and becomes payable, with its one debit, on delivery", async () => {
    const tag = newTag();
    await sentMessages(t.sender, tag);
    const before = await counts(t.customer.id);
    const messageId = mid(tag, "HBgLMTU1NTEyMzAwMDEVAgARGBJBMUIyQzNENEU1RjZBN0I4QzkA");
    await postProvider(fixture("01_status_sent.json", t.sender, tag));
    await drain();
    const sent = await db.billingRecord.findUniqueOrThrow({ where: { messageId } });
    expect(sent).toMatchObject({ status: "sent", billable: true, billingClass: "free" });
    expect((await counts(t.customer.id)).debits).toBe(before.debits);

    await postProvider(fixture("02_status_delivered.json", t.sender, tag));
    await drain();
    const delivered = await db.billingRecord.findUniqueOrThrow({ where: { messageId } });
    expect(delivered).toMatchObject({ status: "delivered", billable: true, billingClass: "payable" });
    expect((await counts(t.customer.id)).debits).toBe(before.debits + 1);
  });

  it("a record left payable without its debit (earlier rule) gets exactly one debit when delivered", async () => {
    const tag = newTag();
    await sentMessages(t.sender, tag);
    const messageId = mid(tag, "HBgLMTU1NTEyMzAwMDEVAgARGBJBMUIyQzNENEU1RjZBN0I4QzkA");
    await postProvider(fixture("01_status_sent.json", t.sender, tag));
    await drain();
    await db.billingRecord.update({ where: { messageId }, data: { billingClass: "payable" } });
    const before = await counts(t.customer.id);
    await postProvider(fixture("02_status_delivered.json", t.sender, tag));
    await postProvider(fixture("03_status_read.json", t.sender, tag));
    await drain();
    expect(await db.billingRecord.findUniqueOrThrow({ where: { messageId } })).toMatchObject({
      status: "read",
      billingClass: "payable",
    });
    expect((await counts(t.customer.id)).debits).toBe(before.debits + 1);
  });

  it("never double-debits or double-emits when two processors take the same message at once", async () => {
    const tag = newTag();
    await sentMessages(t.sender, tag);
    const before = await counts(t.customer.id);
    const delivered = fixture("02_status_delivered.json", t.sender, tag);
    const copies = [
      delivered,
      delivered.replace('"recipient_id"', '"extra": 1, "recipient_id"'),
      delivered.replace('"status"', '"x": 2, "status"'),
    ];
    for (const raw of copies) await postProvider(raw);
    await Promise.all([processPendingCallbacks(1), processPendingCallbacks(1), processPendingCallbacks(1)]);
    await drain();
    expect(await counts(t.customer.id)).toEqual({
      records: before.records + 1,
      debits: before.debits + 1,
      events: before.events + 1,
    });
  });

  it("applies template category and quality updates and emits their events", async () => {
    const { destination, secret } = await createDestination({
      customerId: t.customer.id,
      senderId: t.sender.id,
      url: receiver.url("/templates"),
      events: ["template.category_update", "template.quality_update"],
    });
    receiver.route("/templates", secret);
    const templateId = `${randomInt(100_000, 999_999)}000111`;
    const change = (field: string, value: Record<string, unknown>) =>
      `{"object":"whatsapp_business_account","entry":[{"id":"${t.sender.wabaId}","time":1767262700,"changes":[{"field":"${field}","value":${JSON.stringify(value).replace(`"${templateId}"`, templateId)}}]}]}`;
    const base = {
      message_template_id: templateId,
      message_template_name: "order_update",
      message_template_language: "en_US",
    };
    await postProvider(
      change("template_category_update", { ...base, previous_category: "UTILITY", new_category: "MARKETING" }),
    );
    await postProvider(
      change("message_template_quality_update", {
        ...base,
        previous_quality_score: "GREEN",
        new_quality_score: "YELLOW",
      }),
    );
    await drain();
    const template = await db.template.findFirstOrThrow({
      where: { customerId: t.customer.id, providerTemplateId: templateId },
    });
    expect(template).toMatchObject({
      name: "order_update",
      language: "en_US",
      category: "marketing",
      quality: "YELLOW",
    });
    await waitFor(() => receiver.on("/templates").length >= 2);
    const got = receiver.on("/templates");
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.map((r) => r.payload.type).sort()).toEqual(["template.category_update", "template.quality_update"]);
    expect(got[0]?.payload.data).toMatchObject({ providerTemplateId: templateId, templateUid: template.id });
    expect(await db.webhookDelivery.count({ where: { destinationId: destination.id } })).toBe(2);
  });

  it("records a callback for an unknown number as processed with a note", async () => {
    const tag = newTag();
    const raw = fixture("01_status_sent.json", { phoneNumberId: "999000111222333", wabaId: "1" }, tag);
    expect((await postProvider(raw)).status).toBe(200);
    await drain();
    const row = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: tag } } });
    expect(row.processedAt).not.toBeNull();
    expect(row.error).toContain("unknown phone_number_id 999000111222333");
    expect(await db.billingRecord.count({ where: { messageId: { startsWith: `wamid.${tag}.` } } })).toBe(0);
  });
});

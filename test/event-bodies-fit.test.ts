// The bodies the service really delivers fit the event catalog's published schemas
// (docs/api/webhooks.md "The event catalog"): a send through the router, the provider's own
// status and inbound callbacks through the signed endpoint, a conversation closed from the
// API and a test delivery, each validated with an independent JSON Schema validator (ajv)
// against GET /webhooks/events. The stored WebhookEvent payload is the body every destination
// receives (lib/domains/events/emit.ts buildPayload).
import { randomBytes } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { EVENT_KEYS } from "@/lib/domains/webhooks/catalog";
import { contactWrites, drainCallbacks } from "./conversation-fixtures";
import { createDestination, fixture, postProvider, sentMessages } from "./events-helpers";
import { call, uniquePhone } from "./factory";
import { HELLO_PARAMS, messagingCustomer } from "./messaging-fixtures";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let schemas: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 10 });
  await createDestination({
    customerId: t.customer.id,
    senderId: t.sender.id,
    url: "https://receiver.example.test/hook",
    events: [...EVENT_KEYS],
  });
  const catalog = await call("GET", "/api/v3/webhooks/events", { token: t.globalToken });
  expect(catalog.status).toBe(200);
  const events = catalog.body.data.groups.flatMap((g: { events: unknown[] }) => g.events) as {
    key: string;
    schema: Record<string, unknown>;
  }[];
  schemas = new Map(events.map((e) => [e.key, e.schema]));
});

const delivered = async () =>
  (await db.webhookEvent.findMany({ where: { customerId: t.customer.id }, orderBy: { createdAt: "asc" } })).map(
    (e) => e.payload as { type: string; data: Record<string, unknown> },
  );

describe("real event bodies against the published schemas", () => {
  it("every delivered body of every type produced validates, the send's accepted event included", async () => {
    // A template send through the router: message.status.accepted (and conversation.created).
    const to = uniquePhone();
    const sent = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    expect(sent.status).toBe(200);
    // The provider's status callbacks for messages this sender sent, and inbound messages.
    const tag = `fit${randomBytes(3).toString("hex")}`;
    await sentMessages(t.sender, tag);
    for (const name of [
      "01_status_sent",
      "02_status_delivered",
      "03_status_read",
      "04_status_failed",
      "06_inbound_text",
      "07_inbound_interactive_button_reply",
    ]) {
      expect((await postProvider(fixture(`${name}.json`, t.sender, tag))).status).toBe(200);
    }
    await drainCallbacks();
    // A conversation closed from the API.
    const writer = uniquePhone();
    await contactWrites(t.sender, writer, "Hello");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: writer },
    });
    const closed = await call("POST", `/api/v3/conversations/${conversation.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status).toBe(200);

    const bodies = await delivered();
    const types = new Set(bodies.map((b) => b.type));
    for (const type of [
      "message.status.accepted",
      "message.status.sent",
      "message.status.delivered",
      "message.status.read",
      "message.status.failed",
      "message.inbound.text",
      "message.inbound.interactive",
      "conversation.created",
      "conversation.closed",
    ]) {
      expect(types, type).toContain(type);
    }
    for (const body of bodies) {
      const schema = schemas.get(body.type);
      expect(schema, `${body.type} is in the catalog`).toBeDefined();
      const validate = ajv.compile(schema ?? {});
      expect(validate(body), `${body.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    const accepted = bodies.find((b) => b.type === "message.status.accepted");
    expect(accepted?.data).toMatchObject({ messageId: sent.body.data.messageId, billingUid: null });
  });

  it("the schemas still refuse a body that does not fit, and accept one with an added field", async () => {
    const bodies = await delivered();
    const accepted = bodies.find((b) => b.type === "message.status.accepted");
    if (!accepted) throw new Error("no accepted event delivered");
    const validate = ajv.compile(schemas.get("message.status.accepted") ?? {});
    // A planted mismatch: the message id as a number.
    expect(validate({ ...accepted, data: { ...accepted.data, messageId: 42 } })).toBe(false);
    // A field added later must not break a client validating with the published schema.
    expect(validate({ ...accepted, addedLater: true, data: { ...accepted.data, addedLater: 1 } })).toBe(true);
  });
});

// Every event type of the catalog (docs/api/webhooks.md "The event catalog"), webhook.test
// included, is produced here by a real flow through the service and delivered by the real
// delivery worker to a real receiver (test/webhook-receiver.ts, which verifies each signature
// with the public `standardwebhooks` package); each delivered body is validated with an
// independent JSON Schema validator (ajv) against its entry in the served OpenAPI document's
// `webhooks` section. The flows: sends through the router and the simulator's callbacks, the
// provider's signed status, inbound and template callbacks, conversations closed and assigned
// from the API, a chatbot's hand-off, a broadcast started, paused and completed, the account's
// low-balance threshold, a destination that gives up and one disabled after days of failures,
// and a test event. A catalog type without a verified delivery here fails the last check, so a
// new event type cannot be added untested; planted mismatches prove the check refuses.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument } from "@/lib/api/openapi";
import { db } from "@/lib/db";
import { runAutomationJobs } from "@/lib/domains/automation/worker";
import { setLowBalanceThreshold } from "@/lib/domains/billing/low-balance";
import { dispatchOnce } from "@/lib/domains/broadcasts/dispatcher";
import { runCsatJobs } from "@/lib/domains/csat/send";
import { changeConversationLabels } from "@/lib/domains/labels/apply";
import { createLabel } from "@/lib/domains/labels/service";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundWamid, messagesChange } from "@/lib/domains/provider/simulator-inbound";
import { runSlaJobs } from "@/lib/domains/sla/worker";
import { BREAKER } from "@/lib/domains/webhooks/breaker";
import { DELIVERED_EVENT_TYPES, EVENT_KEYS } from "@/lib/domains/webhooks/catalog";
import { startDeliveryWorker } from "@/lib/domains/webhooks/worker";
import { memberPrincipal } from "@/test/member-fixtures";
import { contactWrites, drainCallbacks, postSigned } from "./conversation-fixtures";
import { fixture, postProvider, sentMessages, waitFor } from "./events-helpers";
import { call, uniquePhone } from "./factory";
import { createMemberOf } from "./member-fixtures";
import { HELLO_PARAMS, messagingCustomer } from "./messaging-fixtures";
import { type Delivered, deliveryProblems, eventSchemaOf, eventValidator } from "./openapi-events";
import { type Receiver, startReceiver } from "./webhook-receiver";

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let receiver: Receiver;
let worker: { stop: () => Promise<void> };
let doc: OpenApiDocument;
const COLLECTOR = "/all";

/** Creates a destination through the API, its receiver path answering with `status`; its uid. */
async function destination(path: string, events: readonly string[], over: Record<string, unknown> = {}, status = 200) {
  const res = await call("POST", "/api/v3/webhooks", {
    token: t.globalToken,
    body: { webhook: { name: path, endpointUrl: receiver.url(path), events: [...events], ...over } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  receiver.route(path, res.body.signingSecret, () => ({ status }));
  return res.body.data.webhookUid as string;
}

/** What the collector received: each body as sent and whether its signature verified. */
const collected = (): Delivered[] =>
  receiver.on(COLLECTOR).map((r) => ({ body: JSON.parse(r.body), verified: r.verified }));
const collectedTypes = () => new Set(collected().map((d) => (d.body as { type: string }).type));
const arrived = (type: string) => waitFor(() => collectedTypes().has(type), 20_000, `a delivery of ${type}`);

/** A provider `messages` change from a contact to the test's sender, signed and applied. */
async function inbound(message: Record<string, unknown>) {
  const from = uniquePhone().replace(/\D/g, "");
  const sender = {
    phoneNumberId: t.sender.phoneNumberId ?? "",
    phoneNumber: t.sender.phoneNumber,
    wabaId: t.sender.wabaId,
  };
  const body = envelopeFor([
    messagesChange(sender, {
      contacts: [{ profile: { name: "Ada Lovelace" }, wa_id: from }],
      messages: [{ from, id: inboundWamid(), timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
    }),
  ]);
  expect(await postSigned(body)).toBe(200);
}

/** A provider template change (status, category or quality) for the test's business account, signed and applied. */
async function templateUpdate(field: string, value: Record<string, unknown>) {
  const body = envelopeFor([{ entryId: t.sender.wabaId ?? "", field, value }]);
  expect(await postSigned(body)).toBe(200);
  await drainCallbacks();
}

beforeAll(async () => {
  t = await messagingCustomer({ credit: 10 });
  receiver = await startReceiver();
  worker = startDeliveryWorker({ customerIds: [t.customer.id], pollMs: 20, retryBaseMs: 20, leaseMarginMs: 2000 });
  // The collector subscribes to every key of the catalog; webhook.test reaches it when sent one.
  await destination(COLLECTOR, EVENT_KEYS);
  const served = await call("GET", "/api/v3/openapi.json", {});
  expect(served.status).toBe(200);
  doc = served.body as OpenApiDocument;
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

describe("every catalog event type, delivered for real", () => {
  it("message statuses: a send through the router and the provider's signed status callbacks", async () => {
    const sent = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: uniquePhone(), template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const tag = `fit${randomBytes(3).toString("hex")}`;
    await sentMessages(t.sender, tag);
    for (const name of ["01_status_sent", "02_status_delivered", "03_status_read", "04_status_failed"]) {
      expect((await postProvider(fixture(`${name}.json`, t.sender, tag))).status).toBe(200);
    }
    await drainCallbacks();
    for (const s of ["accepted", "sent", "delivered", "read", "failed"]) await arrived(`message.status.${s}`);
    await arrived("conversation.created");
  }, 60_000);

  it("inbound messages of every type: the provider's signed callbacks", async () => {
    const tag = `fit${randomBytes(3).toString("hex")}`;
    for (const name of ["06_inbound_text", "07_inbound_interactive_button_reply"]) {
      expect((await postProvider(fixture(`${name}.json`, t.sender, tag))).status).toBe(200);
    }
    // The provider's own shapes of the other message types.
    const messages: Record<string, unknown>[] = [
      { type: "image", image: { id: "1479537139650973", mime_type: "image/jpeg", sha256: "aGVsbG8=", caption: "Box" } },
      { type: "audio", audio: { id: "1479537139650974", mime_type: "audio/ogg; codecs=opus", voice: true } },
      { type: "video", video: { id: "1479537139650975", mime_type: "video/mp4", sha256: "aGVsbG8=" } },
      {
        type: "document",
        document: { id: "1479537139650976", mime_type: "application/pdf", sha256: "aGVsbG8=", filename: "a.pdf" },
      },
      { type: "sticker", sticker: { id: "1479537139650977", mime_type: "image/webp", animated: false } },
      { type: "location", location: { latitude: 52.52, longitude: 13.405, name: "Office", address: "Berlin" } },
      {
        type: "contacts",
        contacts: [
          { name: { formatted_name: "Ada Lovelace", first_name: "Ada" }, phones: [{ phone: "+15550100002" }] },
        ],
      },
      {
        type: "button",
        button: { payload: "CONFIRM", text: "Confirm" },
        context: { from: "15550100001", id: "wamid.x" },
      },
      { type: "reaction", reaction: { message_id: "wamid.HBgLMTU1NTAxMDAwMDIVAgARGBI", emoji: "👍" } },
    ];
    for (const m of messages) await inbound(m);
    await drainCallbacks();
    for (const key of EVENT_KEYS.filter((k) => k.startsWith("message.inbound."))) await arrived(key);
  }, 60_000);

  it("templates: one created through the API and reviewed by the simulator, then the provider's category and quality updates", async () => {
    const created = await call("POST", "/api/v3/templates", {
      token: t.globalToken,
      body: {
        template: {
          name: `fit_${randomBytes(3).toString("hex")}`,
          language: "en_US",
          category: "utility",
          components: [{ type: "BODY", text: "Shipped {{1}}" }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { providerTemplateId, name, language } = created.body.data;
    // The simulator's review comes back as a signed message_template_status_update callback.
    await waitFor(
      async () => {
        await drainCallbacks();
        return collectedTypes().has("template.status_update");
      },
      20_000,
      "the simulator's review",
    );
    const template = {
      message_template_id: Number(providerTemplateId),
      message_template_name: name,
      message_template_language: language,
    };
    await templateUpdate("template_category_update", {
      ...template,
      previous_category: "UTILITY",
      new_category: "MARKETING",
    });
    await templateUpdate("message_template_quality_update", {
      ...template,
      previous_quality_score: "GREEN",
      new_quality_score: "YELLOW",
    });
    await arrived("template.category_update");
    await arrived("template.quality_update");
  }, 60_000);

  it("conversations: closed and assigned from the API, labelled, handed off by a chatbot", async () => {
    const writer = uniquePhone();
    await contactWrites(t.sender, writer, "Hello");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: writer },
    });
    const agent = await createMemberOf(t.customer.id, "agent");
    const assigned = await call("POST", `/api/v3/conversations/${conversation.id}`, {
      token: t.globalToken,
      body: { conversation: { assignee: agent.email } },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const closed = await call("POST", `/api/v3/conversations/${conversation.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const bot = await call("POST", "/api/v3/chatbots", {
      token: t.globalToken,
      body: {
        chatbot: {
          name: "Front desk",
          status: "ACTIVE",
          rules: [
            {
              match: { type: "keyword", value: "agent" },
              reply: { type: "text", text: "A person will answer" },
              handoff: true,
            },
          ],
        },
      },
    });
    expect(bot.status, JSON.stringify(bot.body)).toBe(201);
    await contactWrites(t.sender, uniquePhone(), "agent");
    const owner = memberPrincipal(t.customer.id, { email: "owner@example.test" });
    await createLabel(owner, { name: "refund", color: "red", description: "" });
    await changeConversationLabels(owner, undefined, conversation.id, { add: ["refund"], remove: [] });
    for (const key of [
      "conversation.assigned",
      "conversation.closed",
      "conversation.handoff",
      "conversation.labels_changed",
    ]) {
      await arrived(key);
    }
  }, 60_000);

  it("conversation.csat_received: a person closes, the survey goes out, the contact taps", async () => {
    const enabled = await call("POST", "/api/v3/settings/csat", { token: t.globalToken, body: { enabled: true } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    const writer = uniquePhone();
    await contactWrites(t.sender, writer, "Hello");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: writer },
    });
    const closed = await call("POST", `/api/v3/conversations/${conversation.id}`, {
      token: t.globalToken,
      body: { conversation: { status: "CLOSED" } },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    for (let i = 0; i < 5; i++) if ((await runCsatJobs({ customerIds: [t.customer.id] })) === 0) break;
    const survey = await db.csatSurvey.findFirstOrThrow({ where: { conversationId: conversation.id } });
    const from = writer.replace(/\D/g, "");
    const tap = envelopeFor([
      messagesChange(
        { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId },
        {
          contacts: [{ profile: { name: "Ada Lovelace" }, wa_id: from }],
          messages: [
            {
              from,
              id: inboundWamid(),
              timestamp: String(Math.floor(Date.now() / 1000)),
              type: "interactive",
              interactive: { type: "button_reply", button_reply: { id: `csat:${survey.id}:3`, title: "😀 Happy" } },
            },
          ],
        },
      ),
    ]);
    expect(await postSigned(tap)).toBe(200);
    await drainCallbacks();
    await arrived("conversation.csat_received");
  }, 60_000);

  it("automation.triggered: a rule with a webhook action, run by the automation worker's pass", async () => {
    const rule = await call("POST", "/api/v3/automations", {
      token: t.globalToken,
      body: {
        rule: {
          name: "Tell the CRM",
          trigger: { event: "message.inbound" },
          conditions: [{ field: "message.text", op: "contains", value: "invoice" }],
          actions: [{ type: "webhook" }],
        },
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    await contactWrites(t.sender, uniquePhone(), "Where is my invoice?");
    for (let i = 0; i < 10; i++) if ((await runAutomationJobs({ customerIds: [t.customer.id] })) === 0) break;
    await arrived("automation.triggered");
  }, 60_000);

  it("conversation.sla_breached: a policy's first response missed, found by the SLA worker's timer", async () => {
    const policy = await call("POST", "/api/v3/sla-policies", {
      token: t.globalToken,
      body: { policy: { name: "Fit", firstResponseMinutes: 1 } },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const writer = uniquePhone();
    // The chatbot of the conversations' flow holds the conversation until it hands off ("agent").
    await contactWrites(t.sender, writer, "agent");
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: writer },
    });
    // Two minutes pass: the wait began before the due time, and the timer is due.
    const past = new Date(Date.now() - 2 * 60_000);
    await db.supportPeriod.updateMany({
      where: { conversationId: conversation.id },
      data: { startedAt: past, waitingSince: past },
    });
    await db.scheduledJob.updateMany({
      where: { subjectId: conversation.id, kind: "sla.check" },
      data: { dueAt: past },
    });
    for (let i = 0; i < 10; i++) if ((await runSlaJobs({ customerIds: [t.customer.id] })) === 0) break;
    await arrived("conversation.sla_breached");
    await call("DELETE", `/api/v3/sla-policies/${policy.body.data.slaUid}`, { token: t.globalToken });
  }, 60_000);

  it("a broadcast started, paused by a person, resumed and completed by the dispatcher", async () => {
    const book = await db.contactBook.create({ data: { customerId: t.customer.id, name: "Fit audience" } });
    await db.contact.createMany({
      data: ["Kim", "Lee"].map((name) => ({
        customerId: t.customer.id,
        contactBookId: book.id,
        phoneNumber: uniquePhone(),
        name,
      })),
    });
    const created = await call("POST", "/api/v3/broadcasts", {
      token: t.globalToken,
      body: {
        broadcast: {
          name: "Fit",
          template: { name: "spring_sale", language: "en" },
          audience: { contactBookUids: [book.id] },
          variables: { body: [{ source: "name" }] },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const uid = created.body.data.broadcastUid as string;
    for (const action of ["start", "pause", "resume"]) {
      const res = await call("POST", `/api/v3/broadcasts/${uid}/${action}`, { token: t.globalToken, body: {} });
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    for (let i = 0; i < 200; i++) {
      await dispatchOnce({ customerIds: [t.customer.id] });
      if ((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status !== "SENDING") break;
    }
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status).toBe("COMPLETED");
    for (const key of ["broadcast.started", "broadcast.paused", "broadcast.completed"]) await arrived(key);
  }, 60_000);

  it("billing.balance.low: the account's threshold raised above its balance", async () => {
    // The dashboard's ledger form calls this service; it decides against the new threshold at once.
    await setLowBalanceThreshold(memberPrincipal(t.customer.id), "1000");
    await arrived("billing.balance.low");
  }, 60_000);

  it("endpoint health: a destination that gives up, one disabled after 5 days of failures; a test event", async () => {
    // Both fail every attempt; the provider's next failed status is their one delivery.
    await destination("/gives-up", ["message.status.failed"], { retryMaxAttempts: 1 }, 500);
    const dead = await destination("/dead", ["message.status.failed"], {}, 503);
    // Five days of failures already behind it (the clock cannot be waited out): its breaker
    // is open and due for a probe, which fails and disables it.
    await db.webhookDestination.update({
      where: { id: dead },
      data: {
        breakerState: "OPEN",
        consecutiveFailures: 40,
        failingSince: new Date(Date.now() - BREAKER.disableAfterMs - 60_000),
        breakerOpenCount: 7,
        nextProbeAt: new Date(Date.now() - 1000),
      },
    });
    const tag = `fit${randomBytes(3).toString("hex")}`;
    await sentMessages(t.sender, tag);
    expect((await postProvider(fixture("04_status_failed.json", t.sender, tag))).status).toBe(200);
    await drainCallbacks();
    // And a signed test event to the collector.
    const collector = await db.webhookDestination.findFirstOrThrow({
      where: { customerId: t.customer.id, endpointUrl: receiver.url(COLLECTOR) },
    });
    const test = await call("POST", `/api/v3/webhooks/${collector.id}/test`, { token: t.globalToken });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    for (const key of ["webhook.delivery.exhausted", "webhook.endpoint.disabled", "webhook.test"]) await arrived(key);
  }, 60_000);

  it("every type of the catalog arrived verified, and every body fits its schema in the document's webhooks", () => {
    // The document describes every type a destination may receive, and nothing else.
    expect(Object.keys(doc.webhooks).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
    const delivered = collected();
    expect(delivered.length).toBeGreaterThan(DELIVERED_EVENT_TYPES.length);
    expect(deliveryProblems(doc, DELIVERED_EVENT_TYPES, delivered)).toEqual([]);
    const accepted = delivered.find((d) => (d.body as { type: string }).type === "message.status.accepted");
    expect(accepted?.body).toMatchObject({ data: { billingUid: null, messageUid: expect.any(String) } });
  });
});

describe("the check refuses a planted mismatch", () => {
  const bodyOf = (type: string) => {
    const found = collected().find((d) => (d.body as { type: string }).type === type);
    if (!found) throw new Error(`no ${type} delivered`);
    return found.body as { type: string; data: Record<string, unknown> };
  };

  it("a delivered body altered: a field of the wrong type, a required field dropped", () => {
    const validate = eventValidator(doc);
    const accepted = bodyOf("message.status.accepted");
    expect(validate(accepted)).toEqual([]);
    expect(validate({ ...accepted, data: { ...accepted.data, messageId: 42 } })).toEqual([
      "message.status.accepted: /data/messageId must be string",
    ]);
    const { conversationUid: _dropped, ...rest } = bodyOf("conversation.closed").data;
    expect(validate({ ...bodyOf("conversation.closed"), data: rest }).join("\n")).toMatch(
      /conversation.closed: \/data must have required property 'conversationUid'/,
    );
    // A field added later must not break a client validating with the published schema.
    expect(validate({ ...accepted, addedLater: true, data: { ...accepted.data, addedLater: 1 } })).toEqual([]);
  });

  it("a schema altered in memory: the accepted status's billingUid a string again (as before it matched)", () => {
    const planted = structuredClone(doc);
    const schema = eventSchemaOf(planted, "message.status.accepted") as {
      properties: { data: { properties: Record<string, unknown> } };
    };
    schema.properties.data.properties.billingUid = { type: "string" };
    const problems = deliveryProblems(planted, DELIVERED_EVENT_TYPES, collected());
    expect(problems).toContain("message.status.accepted: /data/billingUid must be string");
  });

  it("a catalog type without a delivery, without a schema, or a delivery whose signature did not verify", () => {
    const delivered = collected();
    const withNewType = deliveryProblems(doc, [...DELIVERED_EVENT_TYPES, "message.status.planted"], delivered);
    expect(withNewType).toEqual([
      "message.status.planted: no entry in the document's webhooks",
      "message.status.planted: no verified real delivery",
    ]);
    const onlyUnverified = delivered
      .filter((d) => (d.body as { type: string }).type === "webhook.test")
      .map((d) => ({ ...d, verified: false }));
    const rest = delivered.filter((d) => (d.body as { type: string }).type !== "webhook.test");
    expect(deliveryProblems(doc, DELIVERED_EVENT_TYPES, [...rest, ...onlyUnverified])).toEqual([
      "webhook.test: no verified real delivery",
      "webhook.test: signature not verified",
    ]);
  });
});

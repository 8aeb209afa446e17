// message.status.accepted (docs/event-pipeline.md "Events"): the service emits it when the provider
// accepted its send, to every ACTIVE destination of that sender subscribed to the key,
// once per send, with the body of the other message.status.* events.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

const hook = (token: string, name: string, events: string[]) =>
  call("POST", "/api/v3/webhooks", {
    token,
    body: { webhook: { name, endpointUrl: "https://hooks.example.com/accepted", events } },
  });

/** The destination's deliveries of message.status.accepted (the simulator reports the other statuses too). */
const deliveriesTo = (webhookUid: string) =>
  db.webhookDelivery.findMany({
    where: { destinationId: webhookUid, event: { type: "message.status.accepted" } },
    include: { event: true },
  });

describe("message.status.accepted", () => {
  it("reaches each subscribed ACTIVE destination once per accepted send, and no other", async () => {
    const t = await messagingCustomer();
    const subscribed = await hook(t.globalToken, "accepted", ["message.status.accepted"]);
    const other = await hook(t.globalToken, "delivered only", ["message.status.delivered"]);
    const inactive = await hook(t.globalToken, "inactive", ["message.status.accepted"]);
    expect([subscribed.status, other.status, inactive.status]).toEqual([200, 200, 200]);
    await db.webhookDestination.updateMany({
      where: { id: inactive.body.data.uid },
      data: { status: "INACTIVE" },
    });

    const to = recipient();
    const template = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to, template: { name: "order_update", language: "en", components: HELLO_PARAMS } },
    });
    expect(template.status).toBe(200);
    const engaged = await engagedRecipient(t.sender);
    const text = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", to: engaged, type: "text", text: { body: "hi" } },
    });
    expect(text.status).toBe(200);
    const ids = [template.body.data.messageId, text.body.messages[0].id];

    const got = await deliveriesTo(subscribed.body.data.uid);
    expect(got).toHaveLength(2);
    type Payload = { data: { messageId: string; messageUid: string; recipientId: string } };
    const payloads = got.map((d) => d.event.payload as Payload);
    expect(payloads.map((p) => p.data.messageId).sort()).toEqual([...ids].sort());
    for (const p of payloads) {
      expect(p).toMatchObject({
        type: "message.status.accepted",
        senderId: t.sender.phoneNumber,
        phoneNumberId: t.sender.phoneNumberId,
        data: { status: "accepted", previousStatus: null, pricing: null, conversation: null, errors: [] },
      });
      expect(p.data.messageUid).toMatch(/^msg_/);
      expect(p.data.recipientId).toMatch(/^\d+$/);
    }
    expect(await deliveriesTo(other.body.data.uid)).toHaveLength(0);
    expect(await deliveriesTo(inactive.body.data.uid)).toHaveLength(0);
  });

  it("is not emitted for a refused send", async () => {
    const t = await messagingCustomer();
    const subscribed = await hook(t.globalToken, "accepted", ["message.status.accepted"]);
    const refused = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "no_such_template", language: "en" } },
    });
    expect(refused.status).toBe(404);
    expect(await deliveriesTo(subscribed.body.data.uid)).toHaveLength(0);
  });
});

// Taps on buttons and quoted replies from the contact, through the real callback endpoint and
// processor: the entry keeps the message it answers (only of its own conversation), the
// thread and message.inbound.* carry the reply and the quote, a replayed callback adds nothing.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import {
  type InboundSpec,
  inboundReplyChange,
  inboundTextChange,
  inboundWamid,
} from "@/lib/domains/provider/simulator-inbound";
import type { Sender } from "@/lib/domains/senders/service";
import { recordApiAnswers } from "@/test/api-answers";
import { drainCallbacks, postSigned } from "@/test/conversation-fixtures";
import { call } from "@/test/factory";
import { engagedRecipient, messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

const who = (s: Sender) => ({ phoneNumberId: s.phoneNumberId ?? "", phoneNumber: s.phoneNumber, wabaId: s.wabaId });

async function post(body: string): Promise<void> {
  expect(await postSigned(body)).toBe(200);
  await drainCallbacks();
}
const tap = (sender: Sender, spec: Omit<InboundSpec, "text"> & Parameters<typeof inboundReplyChange>[1]) =>
  envelopeFor([inboundReplyChange(who(sender), spec)]);
const quote = (sender: Sender, spec: InboundSpec) => envelopeFor([inboundTextChange(who(sender), spec)]);

async function entry(providerMessageId: string) {
  for (let i = 0; i < 100; i++) {
    const row = await db.conversationMessage.findUnique({ where: { providerMessageId } });
    if (row) return row;
    await drainCallbacks();
  }
  throw new Error(`${providerMessageId} was not applied`);
}

async function sendButtons(token: string, to: string) {
  const res = await call("POST", "/api/v3/chat", {
    token,
    body: {
      to,
      type: "buttons",
      interactive: {
        body: "Track or talk?",
        buttons: [
          { id: "track", title: "Track my order" },
          { id: "agent", title: "Talk to a person" },
        ],
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { messageUid: string; messageId: string };
}

describe("a tap on our buttons", () => {
  it("keeps the reply and the message tapped; the thread and the event carry both; a replay adds nothing", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const sent = await sendButtons(t.globalToken, to);
    const id = inboundWamid();
    const body = tap(t.sender, {
      from: to,
      id,
      context: sent.messageId,
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
    });
    await post(body);
    await post(body);
    const row = await entry(id);
    expect(await db.conversationMessage.count({ where: { providerMessageId: id } })).toBe(1);
    const conversationUid = row.conversationId;
    const thread = await call("GET", `/api/v3/conversations/${conversationUid}/messages`, { token: t.globalToken });
    expect(thread.status).toBe(200);
    const items = thread.body.data.items as Record<string, unknown>[];
    const ours = items.find((m) => m.providerMessageId === sent.messageId);
    const theirs = items.find((m) => m.providerMessageId === id);
    expect(ours).toMatchObject({
      direction: "outbound",
      reply: null,
      interactive: {
        type: "buttons",
        body: "Track or talk?",
        buttons: [
          { id: "track", title: "Track my order" },
          { id: "agent", title: "Talk to a person" },
        ],
      },
    });
    expect(theirs).toMatchObject({
      direction: "inbound",
      interactive: null,
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      replyTo: { messageId: ours?.messageUid, providerMessageId: sent.messageId, preview: "Track or talk?" },
    });
    const events = await db.webhookEvent.findMany({ where: { dedupeKey: `inbound:${id}` } });
    expect(events).toHaveLength(1);
    const [event] = events;
    if (!event) throw new Error("no event");
    expect(event.type).toBe("message.inbound.interactive");
    expect((event.payload as { data: unknown }).data).toMatchObject({
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      context: { id: sent.messageId, messageId: ours?.messageUid, providerMessageId: sent.messageId },
    });
  });

  it("keeps a list pick with its description", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const id = inboundWamid();
    await post(
      tap(t.sender, {
        from: to,
        id,
        reply: { type: "list_reply", id: "r2", title: "Billing", description: "Invoices and refunds" },
      }),
    );
    const row = await entry(id);
    const thread = await call("GET", `/api/v2/conversations/${row.conversationId}/messages`, { token: t.globalToken });
    const theirs = (thread.body.data.items as Record<string, unknown>[]).find((m) => m.providerMessageId === id);
    expect(theirs).toMatchObject({
      reply: { type: "list_reply", id: "r2", title: "Billing", description: "Invoices and refunds" },
      replyTo: null,
    });
  });
});

describe("a contact's quoted reply", () => {
  it("resolves a quote of our message and of their own, and only inside the conversation", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const sent = await sendButtons(t.globalToken, to);
    // Their own earlier message, quoted.
    const first = inboundWamid();
    await post(quote(t.sender, { from: to, id: first, text: "Which one is mine?" }));
    const quoted = inboundWamid();
    await post(quote(t.sender, { from: to, id: quoted, text: "this one", context: first }));
    const own = await entry(quoted);
    const firstRow = await entry(first);
    expect(own.replyTo).toEqual({ messageId: firstRow.id, providerMessageId: first, preview: "Which one is mine?" });

    // Another contact of the same sender, and another account, quoting this conversation's messages:
    // the quote stays unknown, the preview never crosses.
    const stranger = await engagedRecipient(t.sender);
    const cross = inboundWamid();
    await post(quote(t.sender, { from: stranger, id: cross, text: "yes", context: sent.messageId }));
    expect((await entry(cross)).replyTo).toEqual({
      messageId: null,
      providerMessageId: sent.messageId,
      preview: null,
    });
    const other = await messagingCustomer();
    const otherTo = await engagedRecipient(other.sender);
    const foreign = inboundWamid();
    await post(quote(other.sender, { from: otherTo, id: foreign, text: "yes", context: first }));
    expect((await entry(foreign)).replyTo).toEqual({ messageId: null, providerMessageId: first, preview: null });
    const event = await db.webhookEvent.findFirstOrThrow({ where: { dedupeKey: `inbound:${foreign}` } });
    expect((event.payload as { data: { context: unknown } }).data.context).toMatchObject({
      id: first,
      messageId: null,
      providerMessageId: first,
    });

    const thread = await call("GET", `/api/v3/conversations/${own.conversationId}/messages`, { token: t.globalToken });
    const item = (thread.body.data.items as Record<string, unknown>[]).find((m) => m.providerMessageId === quoted);
    expect(item?.replyTo).toEqual({ messageId: firstRow.id, providerMessageId: first, preview: "Which one is mine?" });
  });
});

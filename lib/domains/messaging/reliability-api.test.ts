// Idempotent retries, the reconnect queue and provider error mapping (docs/api/errors.md "When to retry").
import { describe, expect, it, vi } from "vitest";
import { startBackgroundWork } from "@/lib/background";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { PAIR_RATE_LIMIT, THROUGHPUT_EXCEEDED, THROUGHPUT_UPGRADE } from "@/lib/domains/provider/error-codes";
import { contactWrites } from "@/test/conversation-fixtures";
import { call } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";
import { setSenderConnection } from "./reconnect-queue";

const sim = () => {
  const s = getSimulator();
  if (!s) throw new Error("tests expect the simulator");
  return s;
};
const tpl = (to: string) => ({ to, template: { name: "order_update", components: HELLO_PARAMS } });

describe("Idempotency-Key", () => {
  it("returns the first result for a retry with the same key and body, sending once", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    const headers = { "Idempotency-Key": "order-42-confirmation" };
    const first = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to), headers });
    const retry = await call("POST", "/api/v2/send", { token: t.globalToken, body: tpl(to), headers });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.data.messageUid).toBe(first.body.data.messageUid);
    expect(retry.headers.get("x-service-message-id")).toBe(first.headers.get("x-service-message-id"));
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(sim().acceptedTo(to)).toHaveLength(1);
    expect(await db.message.count({ where: { customerId: t.customer.id, recipient: to } })).toBe(1);
  });

  it("refuses the same key with a different body (409), keys are per customer", async () => {
    const t = await messagingCustomer();
    const headers = { "Idempotency-Key": "k-1" };
    await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(recipient()), headers });
    const other = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(recipient()), headers });
    expect(other.status).toBe(409);
    expect(other.body.error_code).toBe("IDEMPOTENCY_KEY_REUSED");
    const another = await messagingCustomer();
    const theirs = await call("POST", "/api/v3/send", { token: another.globalToken, body: tpl(recipient()), headers });
    expect(theirs.status).toBe(200);
  });

  it("replays provider-compatible answers and runs again after a failure", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const body = { to, type: "text", text: { body: "hi" } };
    const headers = { "Idempotency-Key": "pc-1" };
    sim().injectErrors(t.sender.phoneNumberId ?? "", [PAIR_RATE_LIMIT]);
    const refused = await call("POST", "/api/v3/messages", { token: t.globalToken, body, headers });
    expect(refused.status).toBe(429);
    const first = await call("POST", "/api/v3/messages", { token: t.globalToken, body, headers });
    const again = await call("POST", "/api/v3/messages", { token: t.globalToken, body, headers });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });
  it("the idempotent flag: /messages and /{phoneNumberId}/messages share keys, per sender", async () => {
    const t = await messagingCustomer();
    // Free-form text needs the customer service window open (docs/conversations.md).
    const to = await engagedRecipient(t.sender);
    const body = { to, type: "text", text: { body: "shared" } };
    const headers = { "Idempotency-Key": "shared-1" };
    const first = await call("POST", "/api/v3/messages", { token: t.globalToken, body, headers });
    const byId = await call("POST", `/api/v2/${t.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body,
      headers,
    });
    expect(first.status).toBe(200);
    expect(byId.headers.get("idempotent-replayed")).toBe("true");
    expect(byId.body).toEqual(first.body);
    // Another sender: another request, so the key is refused rather than replayed.
    const other = await call("POST", `/api/v3/${t.otherSender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body,
      headers,
    });
    expect(other.status).toBe(409);
    expect(other.body.error.error_data.error_code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });
});

describe("provider throughput signals", () => {
  it("retries 130429 and 131057 with backoff and sends exactly once", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    sim().injectErrors(t.sender.phoneNumberId ?? "", [THROUGHPUT_EXCEEDED, THROUGHPUT_UPGRADE]);
    const res = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to) });
    expect(res.status).toBe(200);
    expect(sim().acceptedTo(to)).toHaveLength(1);
    const stored = await db.message.findFirstOrThrow({ where: { id: res.body.data.messageUid } });
    expect(stored.attempts).toBe(3);
    expect(stored.providerMessageId).toBe(res.headers.get("x-service-message-id"));
  });

  it("answers 429 with Retry-After when the provider keeps refusing; nothing was sent", async () => {
    const t = await messagingCustomer();
    const to = recipient();
    sim().injectErrors(t.sender.phoneNumberId ?? "", Array(4).fill(THROUGHPUT_EXCEEDED));
    const res = await call("POST", "/api/v3/send", { token: t.globalToken, body: tpl(to) });
    expect(res.status).toBe(429);
    expect(res.body.error_code).toBe("PROVIDER_RATE_LIMITED");
    expect(res.body.details).toMatchObject({ providerCode: THROUGHPUT_EXCEEDED, attempts: 4 });
    expect(res.headers.get("retry-after")).toBe("1");
    expect(sim().acceptedTo(to)).toHaveLength(0);
    const stored = await db.message.findFirstOrThrow({ where: { id: res.body.details.messageUid } });
    expect(stored).toMatchObject({ status: "failed", errorCode: THROUGHPUT_EXCEEDED, providerMessageId: null });
  });

  it("maps the pair rate limit (131056) to 429 at once, provider-shaped on /messages", async () => {
    const t = await messagingCustomer();
    sim().injectErrors(t.sender.phoneNumberId ?? "", [PAIR_RATE_LIMIT]);
    const res = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to: await engagedRecipient(t.sender), text: { body: "x" } },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("6");
    expect(res.body.error).toMatchObject({ code: PAIR_RATE_LIMIT });
    expect(res.body.error.error_data.error_code).toBe("PROVIDER_RATE_LIMITED");
  });

  it("the simulator enforces the per-number throughput with 130429 (retried by us)", async () => {
    const t = await messagingCustomer();
    const pnid = t.otherSender.phoneNumberId ?? "";
    const contacts = await Promise.all(Array.from({ length: 5 }, () => engagedRecipient(t.otherSender)));
    const send = (to: string) =>
      call("POST", "/api/v3/chat", {
        token: t.globalToken,
        body: { senderId: t.otherSender.phoneNumber, to, text: "x" },
      });
    // The simulator's one-second windows on a clock held still: however slow the machine, the
    // four sends and their retries share one second (a real clock let them spread over two).
    let now = Date.now();
    sim().limits.useClock(() => now);
    sim().limits.setThroughput(pnid, 2);
    try {
      const sends = await Promise.all(contacts.slice(0, 4).map(send));
      const ok = sends.filter((r) => r.status === 200);
      const refused = sends.filter((r) => r.status === 429);
      expect(ok).toHaveLength(2);
      expect(refused).toHaveLength(2);
      for (const r of refused) {
        expect(r.headers.get("retry-after")).toBe("1");
        // Refused on every attempt: we retried 130429 before giving up.
        expect(r.body.details).toMatchObject({ providerCode: THROUGHPUT_EXCEEDED, attempts: 4 });
      }
      expect(new Set(ok.map((r) => r.headers.get("x-service-message-id"))).size).toBe(2);
      // The next second has room again.
      now += 1_000;
      expect((await send(contacts[4] ?? "")).status).toBe(200);
    } finally {
      sim().limits.setThroughput(pnid, undefined);
      sim().limits.useClock();
    }
  });
});

/** A template send to a fresh recipient from a sender that is RECONNECTING. */
async function sendWhileReconnecting() {
  const t = await messagingCustomer();
  await db.sender.update({ where: { id: t.otherSender.id }, data: { connectionStatus: "RECONNECTING" } });
  const to = recipient();
  const res = await call("POST", "/api/v3/send", {
    token: t.globalToken,
    body: { ...tpl(to), senderId: t.otherSender.phoneNumber },
  });
  return { t, to, res };
}

describe("reconnect queue", () => {
  it("queues sends while the sender reconnects and sends them when it is back", async () => {
    const { t, to, res } = await sendWhileReconnecting();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-queued")).toBe("reconnect-queue");
    expect(res.headers.get("x-service-message-id")).toBeNull();
    expect(res.body.data).toMatchObject({ status: "queued", queued: true, messageId: null });
    await contactWrites(t.otherSender, to);
    const provider = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { senderId: t.otherSender.phoneNumber, to, text: { body: "x" } },
    });
    expect(provider.body.messages[0]).toMatchObject({ message_status: "queued" });
    expect(sim().acceptedTo(to)).toHaveLength(0);

    const report = await setSenderConnection(memberPrincipal(t.customer.id), t.otherSender.id, "CONNECTED");
    expect(report).toEqual({ sent: 2, failed: 0 });
    expect(sim().acceptedTo(to)).toHaveLength(2);
    const stored = await db.message.findFirstOrThrow({ where: { id: res.body.data.messageUid } });
    expect(stored).toMatchObject({ queued: false, status: "accepted" });
    expect(stored.providerMessageId).toMatch(/^wamid\./);
    const log = await call("GET", "/api/v3/reports/messages", {
      token: t.globalToken,
      query: { messageUid: stored.id },
    });
    expect(log.body.data.messages[0]).toMatchObject({ messageId: stored.providerMessageId, queued: false });
  });

  it("the background drainer sends a queue whose sender was reconnected without a drain", async () => {
    const { t, to, res } = await sendWhileReconnecting();
    expect(res.headers.get("x-service-queued")).toBe("reconnect-queue");
    // Reconnected behind the service's back (e.g. by an operator in the database).
    await db.sender.update({ where: { id: t.otherSender.id }, data: { connectionStatus: "CONNECTED" } });
    // The app's background work runs the drainer (every 5 s); deliveries only for this customer.
    const background = await startBackgroundWork({ deliveriesOnly: true, customerIds: [t.customer.id] });
    try {
      await vi.waitFor(() => expect(sim().acceptedTo(to)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    } finally {
      await background.stop();
    }
    const stored = await db.message.findFirstOrThrow({ where: { id: res.body.data.messageUid } });
    expect(stored).toMatchObject({ queued: false, status: "accepted" });
  });
});

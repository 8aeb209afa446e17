// The demo is alive: simulated contacts answer delivered messages (SIMULATOR_REPLY_RATE),
// and `simulate:inbound` posts a signed inbound callback through the real endpoint.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { cli } from "@/test/cli-process";
import { drainCallbacks } from "@/test/conversation-fixtures";
import { waitFor } from "@/test/events-helpers";
import { call } from "@/test/factory";
import { HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

describe("simulated contacts", () => {
  it("answer a delivered message with a signed inbound callback that opens the window", async () => {
    const sim = getSimulator();
    if (!sim) throw new Error("tests expect the simulator");
    const t = await messagingCustomer();
    const to = recipient();
    sim.forceOutcome(to, "delivered");
    const before = sim.options.replyRate;
    sim.options.replyRate = 1;
    try {
      const sent = await call("POST", "/api/v3/send", {
        token: t.globalToken,
        body: { to, template: { name: "order_update", components: HELLO_PARAMS } },
      });
      expect(sent.status).toBe(200);
    } finally {
      sim.options.replyRate = before;
      sim.forceOutcome(to, undefined);
    }
    const conversation = await waitFor(
      async () => {
        await drainCallbacks();
        const c = await db.conversation.findFirst({ where: { customerId: t.customer.id, contactPhoneNumber: to } });
        return c?.lastInboundAt ? c : null;
      },
      20_000,
      "the contact's reply",
    );
    expect(conversation.unreadCount).toBe(1);
    const inbound = await db.conversationMessage.findFirstOrThrow({
      where: { conversationId: conversation.id, direction: "inbound" },
    });
    expect(inbound.content).toMatchObject({ text: { body: expect.any(String) } });
    // The window is open now: a session text goes out.
    const chat = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to, text: "Happy to help" } });
    expect(chat.status).toBe(200);
  });
});

describe("simulate:inbound", () => {
  it("posts a signed inbound callback through the endpoint and files it in the conversation", async () => {
    const t = await messagingCustomer();
    const from = recipient();
    const run = await cli(
      "simulate:inbound",
      "--sender",
      t.sender.phoneNumber,
      "--from",
      from,
      "--text",
      "Is the shop open on Sunday?",
      "--json",
    );
    expect(run.stderr, run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout.trim());
    expect(out).toMatchObject({ senderId: t.sender.phoneNumber, from, status: 200 });
    expect(out.conversationUid).toMatch(/^conv_/);
    const c = await call("GET", `/api/v3/conversations/${out.conversationUid}`, { token: t.globalToken });
    expect(c.body.data).toMatchObject({
      contactPhoneNumber: from,
      unreadCount: 1,
      windowOpen: true,
      lastMessagePreview: "Is the shop open on Sunday?",
    });
    const bad = await cli("simulate:inbound", "--sender", t.sender.phoneNumber, "--from", "12", "--text", "x");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--from/);
  });
});

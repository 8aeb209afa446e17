// The demo is alive: simulated contacts answer delivered messages (SIMULATOR_REPLY_RATE),
// and `simulate:inbound` posts a signed inbound callback through the real endpoint.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { cli, cliInProcess, cliJson } from "@/test/cli-process";
import { drainCallbacks } from "@/test/conversation-fixtures";
import { waitFor } from "@/test/events-helpers";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

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
  // Two real CLI processes: 30 s was too little beside the other test lanes on a saturated machine (2026-11-30).
  it("posts a signed inbound callback through the endpoint and files it in the conversation", {
    timeout: 90_000,
  }, async () => {
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

  // Four real CLI processes: more than the default 30 s on a loaded machine (27.5 s at load 17).
  it("taps a reply button, reacts (and removes it) and quotes a message named by --context", {
    timeout: 90_000,
  }, async () => {
    const t = await messagingCustomer();
    const from = await engagedRecipient(t.sender);
    const chat = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        to: from,
        type: "buttons",
        interactive: { body: "Track or talk?", buttons: [{ id: "agent", title: "Talk to a person" }] },
      },
    });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    const sent = chat.body.data as { messageUid: string; messageId: string };
    const base = ["simulate:inbound", "--sender", t.sender.phoneNumber, "--from", from];
    const thread = async (conversationUid: unknown) => {
      const res = await call("GET", `/api/v3/conversations/${conversationUid}/messages`, { token: t.globalToken });
      expect(res.status).toBe(200);
      return res.body.data.items as (Record<string, unknown> & { reactions: { by: string; emoji: string }[] })[];
    };
    const replyTo = { messageId: sent.messageUid, providerMessageId: sent.messageId };

    const tap = await cliJson(
      ...base,
      "--button-id",
      "agent",
      "--button-title",
      "Talk to a person",
      "--context",
      sent.messageId,
    );
    const tapped = (await thread(tap.conversationUid)).find((m) => m.providerMessageId === tap.messageId);
    expect(tapped).toMatchObject({
      direction: "inbound",
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
      replyTo,
    });

    const quote = await cliJson(...base, "--text", "Which one?", "--context", sent.messageId);
    const quoted = (await thread(quote.conversationUid)).find((m) => m.providerMessageId === quote.messageId);
    expect(quoted).toMatchObject({ direction: "inbound", content: { text: { body: "Which one?" } }, replyTo });

    const react = await cliJson(...base, "--reaction", "👍", "--context", sent.messageId);
    expect(react.conversationUid).toBe(tap.conversationUid);
    const ours = async () => (await thread(react.conversationUid)).find((m) => m.providerMessageId === sent.messageId);
    expect((await ours())?.reactions.map((r) => `${r.by}:${r.emoji}`)).toEqual(["contact:👍"]);
    await cliJson(...base, "--reaction", "", "--context", sent.messageId);
    expect((await ours())?.reactions).toEqual([]);

    // Flag combinations are checked before anything is posted.
    const refused = async (args: string[], flag: RegExp) => {
      const run = await cliInProcess(...base, ...args);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(flag);
    };
    await refused(["--reaction", "👍"], /--context/);
    await refused(["--button-id", "agent", "--context", sent.messageId], /--button-title/);
    await refused(["--button-title", "Talk", "--context", sent.messageId], /--button-title/);
    await refused(["--text", "hi", "--reaction", "👍", "--context", sent.messageId], /--text/);
    await refused(["--media", "x.png", "--context", sent.messageId], /--context/);
  });

  it("picks a row of a list named by --context, its description kept", async () => {
    const t = await messagingCustomer();
    const from = await engagedRecipient(t.sender);
    const chat = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        to: from,
        type: "list",
        interactive: {
          body: "Which size?",
          list: {
            button: "Sizes",
            sections: [
              {
                rows: [
                  { id: "size-m", title: "Medium", description: "Chest 96-101 cm" },
                  { id: "size-l", title: "Large" },
                ],
              },
            ],
          },
        },
      },
    });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    const sent = chat.body.data as { messageUid: string; messageId: string };
    const base = ["simulate:inbound", "--sender", t.sender.phoneNumber, "--from", from];
    const pick = await cliJson(
      ...base,
      "--list-row-id",
      "size-m",
      "--list-row-title",
      "Medium",
      "--list-row-description",
      "Chest 96-101 cm",
      "--context",
      sent.messageId,
    );
    const res = await call("GET", `/api/v3/conversations/${pick.conversationUid}/messages`, { token: t.globalToken });
    const picked = (res.body.data.items as Record<string, unknown>[]).find(
      (m) => m.providerMessageId === pick.messageId,
    );
    expect(picked).toMatchObject({
      direction: "inbound",
      type: "interactive",
      reply: { type: "list_reply", id: "size-m", title: "Medium", description: "Chest 96-101 cm" },
      replyTo: { messageId: sent.messageUid, providerMessageId: sent.messageId, preview: "Which size?" },
    });
    const text = await cliInProcess(
      ...base,
      "--list-row-id",
      "size-l",
      "--list-row-title",
      "Large",
      "--context",
      sent.messageId,
    );
    expect(text.stderr, text.stderr).toBe("");
    expect(text.stdout).toMatch(/picked a list row/);

    const refused = async (args: string[], flag: RegExp) => {
      const run = await cliInProcess(...base, ...args);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(flag);
    };
    await refused(["--list-row-id", "size-m", "--list-row-title", "Medium"], /--context/);
    await refused(["--list-row-id", "size-m", "--context", sent.messageId], /--list-row-title/);
    await refused(["--list-row-title", "Medium", "--context", sent.messageId], /--list-row-title/);
    await refused(["--list-row-description", "Chest", "--text", "hi"], /--list-row-description/);
    await refused(
      [
        "--list-row-id",
        "size-m",
        "--list-row-title",
        "Medium",
        "--button-id",
        "a",
        "--button-title",
        "A",
        "--context",
        "w",
      ],
      /--text/,
    );
  });
});

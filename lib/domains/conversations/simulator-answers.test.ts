// Simulated contacts tap, pick, react and quote (docs/messaging.md "Provider and simulator"):
// an answer to a message sent through /chat comes back through the real inbound callback path
// and the thread keeps it as a contact's would be kept. Which button, row and emoji follows
// from the message's provider id (answerChoice), so each test names the one it expects.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import {
  type AnswerRates,
  answerChoice,
  CONTACT_REACTIONS,
  chooseAnswer,
} from "@/lib/domains/provider/simulator-answers";
import { drainCallbacks } from "@/test/conversation-fixtures";
import { waitFor } from "@/test/events-helpers";
import { call } from "@/test/factory";
import { engagedRecipient, messagingCustomer } from "@/test/messaging-fixtures";

type Entry = Record<string, unknown> & {
  messageUid: string;
  providerMessageId: string | null;
  direction: string;
  reactions: { by: string; emoji: string }[];
};

const NONE: AnswerRates = { tapRate: 0, reactionRate: 0, imageReplyRate: 0, quoteRate: 0 };

function simulator() {
  const sim = getSimulator();
  if (!sim) throw new Error("tests expect the simulator");
  return sim;
}

const BUTTONS = [
  { id: "track", title: "Track my order" },
  { id: "return", title: "Return an item" },
  { id: "agent", title: "Talk to a person" },
];
const SECTIONS = [
  {
    title: "Shoes",
    rows: [
      { id: "trainers", title: "Trainers", description: "Running and walking" },
      { id: "boots", title: "Boots" },
    ],
  },
  { title: "Coats", rows: [{ id: "rain", title: "Rain coat", description: "Waterproof, with a hood" }] },
];

describe("simulated contacts answer interactive messages", () => {
  it("chooses by the shares and the message id: the same message always gets the same answer", () => {
    const buttons = {
      messaging_product: "whatsapp" as const,
      to: "15550001111",
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Pick one" },
        action: { buttons: BUTTONS.map((b) => ({ type: "reply", reply: b })) },
      },
    };
    const text = { messaging_product: "whatsapp" as const, to: "15550001111", type: "text", text: { body: "Hi" } };
    const reaction = { ...text, type: "reaction", reaction: { message_id: "wamid.x", emoji: "👍" } };
    const always = () => 0;
    for (const id of ["wamid.a", "wamid.b", "wamid.c", "wamid.d"]) {
      const tap = chooseAnswer(buttons, id, { ...NONE, tapRate: 1 }, always);
      expect(tap).toEqual({ kind: "tap", reply: { type: "button_reply", ...BUTTONS[answerChoice(id, 3)] } });
      expect(chooseAnswer(buttons, id, { ...NONE, tapRate: 1 }, always)).toEqual(tap);
      // No tap at a share of 0: the buttons are reacted to, or written to.
      expect(chooseAnswer(buttons, id, { ...NONE, reactionRate: 1 }, always)).toEqual({
        kind: "reaction",
        emoji: CONTACT_REACTIONS[answerChoice(id, CONTACT_REACTIONS.length, "emoji")],
      });
      expect(chooseAnswer(buttons, id, NONE, always)).toMatchObject({ kind: "text", quote: false });
      expect(chooseAnswer(text, id, { ...NONE, tapRate: 1 }, always)).toMatchObject({ kind: "text" });
      expect(chooseAnswer(text, id, { ...NONE, quoteRate: 1 }, always)).toMatchObject({ kind: "text", quote: true });
      expect(chooseAnswer(text, id, { ...NONE, imageReplyRate: 1 }, always)).toEqual({ kind: "photo" });
      // Our own reaction is neither reacted to nor quoted.
      expect(chooseAnswer(reaction, id, { ...NONE, reactionRate: 1, quoteRate: 1 }, always)).toMatchObject({
        kind: "text",
        quote: false,
      });
    }
    // The choice spreads over the buttons (ids chosen so that each is picked at least once).
    const picks = new Set(Array.from({ length: 40 }, (_, i) => answerChoice(`wamid.${i}`, 3)));
    expect(picks).toEqual(new Set([0, 1, 2]));
  });

  async function answered(body: Record<string, unknown>, rates: Partial<AnswerRates>) {
    const sim = simulator();
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const before = { ...sim.options };
    Object.assign(sim.options, { replyRate: 1, ...NONE, ...rates });
    sim.forceOutcome(to, "delivered");
    let chat: Awaited<ReturnType<typeof call>>;
    try {
      chat = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to, ...body } });
    } finally {
      Object.assign(sim.options, before);
      sim.forceOutcome(to, undefined);
    }
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    const sent = chat.body.data as { messageUid: string; messageId: string };
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: to },
    });
    const thread = async () => {
      const res = await call("GET", `/api/v3/conversations/${conversation.id}/messages`, { token: t.globalToken });
      expect(res.status).toBe(200);
      return res.body.data.items as Entry[];
    };
    /** Waits for the contact's answer: an inbound entry (other than the first hello) that `is` accepts. */
    const answer = (label: string, is: (entries: Entry[]) => Entry | undefined) =>
      waitFor(
        async () => {
          await drainCallbacks();
          return is(await thread());
        },
        20_000,
        label,
      );
    return { sent, thread, answer, replyTo: { messageId: sent.messageUid, providerMessageId: sent.messageId } };
  }

  it("taps one of the buttons of an outbound buttons message: the thread keeps the reply and the message tapped", async () => {
    const { sent, answer, replyTo } = await answered(
      { type: "buttons", interactive: { body: "How can we help?", buttons: BUTTONS } },
      { tapRate: 1 },
    );
    const expected = BUTTONS[answerChoice(sent.messageId, BUTTONS.length)];
    const tap = await answer("the contact's tap", (items) =>
      items.find((e) => e.direction === "inbound" && e.type === "interactive"),
    );
    expect(tap).toMatchObject({ reply: { type: "button_reply", ...expected }, replyTo });
    expect((tap.replyTo as { preview: string }).preview).toBe("How can we help?");
  });

  it("picks a row of an outbound list message, its description included", async () => {
    const { sent, answer, replyTo } = await answered(
      {
        type: "list",
        interactive: { body: "What are you looking for?", list: { button: "Browse", sections: SECTIONS } },
      },
      { tapRate: 1 },
    );
    const rows = SECTIONS.flatMap((s) => s.rows);
    const expected = rows[answerChoice(sent.messageId, rows.length)];
    const pick = await answer("the contact's pick", (items) =>
      items.find((e) => e.direction === "inbound" && e.type === "interactive"),
    );
    expect(pick).toMatchObject({ reply: { type: "list_reply", ...expected }, replyTo });
  });

  it("reacts to a message: the reaction attaches to it as the contact's, not as a line", async () => {
    // Buttons not tapped (tapRate 0): the contact reacts to them instead.
    const { sent, answer, thread } = await answered(
      { type: "buttons", interactive: { body: "Shall we ship today?", buttons: BUTTONS.slice(0, 2) } },
      { reactionRate: 1 },
    );
    const emoji = CONTACT_REACTIONS[answerChoice(sent.messageId, CONTACT_REACTIONS.length, "emoji")];
    const ours = await answer("the contact's reaction", (items) =>
      items.find((e) => e.messageUid === sent.messageUid && e.reactions.length > 0),
    );
    expect(ours.reactions).toMatchObject([{ by: "contact", emoji }]);
    const items = await thread();
    expect(items.filter((e) => e.direction === "inbound").map((e) => e.type)).toEqual(["text"]);
  });

  it("quotes the message it answers with a text", async () => {
    const { answer, replyTo } = await answered({ text: "Your parcel left the warehouse" }, { quoteRate: 1 });
    const quote = await answer("the contact's quoted text", (items) =>
      items.find((e) => e.direction === "inbound" && e.replyTo !== null),
    );
    expect(quote).toMatchObject({
      type: "text",
      content: { text: { body: expect.any(String) } },
      replyTo: { ...replyTo, preview: "Your parcel left the warehouse" },
    });
  });
});

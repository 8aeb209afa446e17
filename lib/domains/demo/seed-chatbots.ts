// The demo's chatbot (docs/chatbots.md): one ACTIVE bot on the second sender that greets with
// a menu of reply buttons and branches on the tapped button's id (reply_id rules), answers
// "hours" with the opening hours and hands off to a person on "agent" or the "Talk to a person"
// button. Checked by the API's own schema, so the demo never holds a bot the API would refuse.

import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { ChatbotCreateInput } from "@/lib/domains/chatbots/schemas";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";

export const DEMO_CHATBOT_NAME = "Acme front desk";

/** The greeting's menu: the buttons the bot's reply_id rules branch on. */
export const DEMO_BOT_MENU = {
  body: "Hi! Welcome to Acme. How can we help?",
  footer: "Or type hours, or agent to talk to a person",
  buttons: [
    { id: "hours", title: "Opening hours" },
    { id: "track", title: "Track my order" },
    { id: "agent", title: "Talk to a person" },
  ],
};
export const DEMO_BOT_HOURS =
  "We are open Monday to Friday, 9:00 to 18:00, and Saturday 10:00 to 14:00 (New York time).";
const TRACK =
  "Orders leave our warehouse within a day and arrive in 2-3 days. Send us your order number (ACM-…) and we will look it up.";
const HANDOFF = "Thanks! A member of our team will answer you here shortly.";

const DEMO_CHATBOT = ChatbotCreateInput.parse({
  name: DEMO_CHATBOT_NAME,
  status: "ACTIVE",
  rules: [
    {
      match: { type: "regex", value: "^\\s*(hi|hello|hey|good (morning|afternoon|evening))\\b" },
      reply: { type: "buttons", interactive: DEMO_BOT_MENU },
    },
    { match: { type: "keyword", value: "hours" }, reply: { type: "text", text: DEMO_BOT_HOURS } },
    { match: { type: "keyword", value: "agent" }, reply: { type: "text", text: HANDOFF }, handoff: true },
    { match: { type: "reply_id", value: "hours" }, reply: { type: "text", text: DEMO_BOT_HOURS } },
    { match: { type: "reply_id", value: "track" }, reply: { type: "text", text: TRACK } },
    { match: { type: "reply_id", value: "agent" }, reply: { type: "text", text: HANDOFF }, handoff: true },
  ],
  fallbackReply: { type: "text", text: "Sorry, I did not get that. Type hours, or agent to talk to a person." },
});

/** Creates the demo bot once (by name); ACTIVE unless the sender already has an active bot. */
export async function ensureChatbot(customerId: string, sender: Sender): Promise<void> {
  const existing = await db.chatbot.findFirst({ where: { customerId, name: DEMO_CHATBOT_NAME } });
  if (existing) return;
  const active = await db.chatbot.findFirst({ where: { activeSenderId: sender.id } });
  await db.chatbot.create({
    data: {
      id: newId("cbt_"),
      customerId,
      senderId: sender.id,
      activeSenderId: active ? null : sender.id,
      name: DEMO_CHATBOT.name,
      status: active ? "INACTIVE" : "ACTIVE",
      rules: DEMO_CHATBOT.rules as Prisma.InputJsonValue,
      fallbackReply: DEMO_CHATBOT.fallbackReply as Prisma.InputJsonValue,
    },
  });
}

// The OpenAPI examples of the chatbot routes (docs/openapi.md "Adding a route"): one sample
// chatbot through the serializer the routes answer with, and the dry run through the engine.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import { decide } from "./engine";
import { type ChatbotRow, configOf, toPublicChatbot } from "./serializers";

const rules = [{ match: { type: "keyword", value: "hours" }, reply: { type: "text", text: "Open 9 to 5" } }] as const;

const chatbotRow: ChatbotRow = {
  id: "cbt_mwtr9dy580d00daf32ad1db4ff17",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  activeSenderId: null,
  name: "Front desk",
  status: "INACTIVE",
  rules: rules.map((r) => ({ match: { ...r.match }, reply: { ...r.reply } })),
  fallbackReply: null,
  businessHours: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
  sender: sampleSender,
};
const chatbot = toPublicChatbot(chatbotRow);
const params = { chatbotUid: chatbotRow.id };

export const getChatbots = {
  message: "Chatbots retrieved",
  response: { senderId: null, scope: "user" as const, ...listExample("chatbots", [chatbot]) },
};

export const postChatbots = {
  request: { chatbot: { name: "Front desk", rules } },
  message: "Chatbot created",
  response: chatbot,
};

export const getChatbotsByChatbotUid = { params, message: "Chatbot retrieved", response: chatbot };

export const postChatbotsByChatbotUid = {
  params,
  request: { chatbot: { name: "Desk" } },
  message: "Chatbot updated",
  response: toPublicChatbot({ ...chatbotRow, name: "Desk", updatedAt: exampleTime(1) }),
};

export const postChatbotsByChatbotUidTest = {
  params,
  request: { text: "hours" },
  message: "Chatbot test",
  // A keyword bot is decided inline: its patterns never ran out of time (decide-within-budget.ts).
  response: { chatbotUid: chatbotRow.id, ...decide(configOf(chatbotRow), "hours", exampleTime()), timedOut: false },
};

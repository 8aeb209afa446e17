// Public shape of a chatbot (docs/chatbots.md). Every field is named here, so a new column
// (activeSenderId, the outbox) never leaks by accident.
import type { Chatbot, Sender } from "@/lib/generated/prisma/client";
import type { BotConfig, Reply, Rule } from "./engine";
import type { BusinessHoursInput, ChatbotPublic } from "./schemas";

export type ChatbotRow = Chatbot & { sender: Pick<Sender, "phoneNumber" | "phoneNumberId"> };

/** The stored JSON columns as the engine's config (they were validated on the way in). */
export function configOf(row: Pick<Chatbot, "rules" | "fallbackReply" | "businessHours">): BotConfig {
  return {
    rules: (row.rules ?? []) as unknown as Rule[],
    fallbackReply: (row.fallbackReply ?? null) as unknown as Reply | null,
    businessHours: (row.businessHours ?? null) as unknown as BotConfig["businessHours"],
  };
}

export function toPublicChatbot(row: ChatbotRow): ChatbotPublic {
  const config = configOf(row);
  return {
    chatbotUid: row.id,
    uid: row.id,
    senderId: row.sender.phoneNumber,
    phoneNumberId: row.sender.phoneNumberId,
    name: row.name,
    status: row.status,
    rules: config.rules,
    fallbackReply: config.fallbackReply ?? null,
    businessHours: (config.businessHours ?? null) as BusinessHoursInput | null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

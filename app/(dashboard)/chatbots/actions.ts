"use server";
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { ChatbotCreateBody, ChatbotPatch, ChatbotTestBody } from "@/lib/domains/chatbots/schemas";
import { createChatbot, testChatbot, updateChatbot } from "@/lib/domains/chatbots/service";
import { resolveSender } from "@/lib/domains/senders/service";

export const createChatbotAction = defineAction({
  permission: "chatbots",
  schema: ChatbotCreateBody,
  run: async ({ principal, input }) => {
    const sender = await resolveSender(principal, input.senderId, { useDefault: false, requireSetup: false });
    if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
    const bot = await createChatbot(principal, sender, input.chatbot);
    return { uid: bot.id };
  },
  revalidate: "/chatbots",
});

/** Saves the editor, or (with only status) activates or deactivates. */
export const updateChatbotAction = defineAction({
  permission: "chatbots",
  schema: z.object({ uid: RecordId, chatbot: ChatbotPatch }),
  run: async ({ principal, input }) => {
    await updateChatbot(principal, undefined, input.uid, input.chatbot);
  },
  revalidate: "/chatbots",
});

export const testChatbotAction = defineAction({
  permission: "chatbots",
  schema: ChatbotTestBody.extend({ uid: RecordId }),
  run: async ({ principal, input }) => {
    const { chatbotUid: _, ...decision } = await testChatbot(principal, undefined, input.uid, input);
    return decision;
  },
});

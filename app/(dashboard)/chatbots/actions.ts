"use server";
import { revalidatePath } from "next/cache";
import { ApiError } from "@/lib/core/errors";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import type { Decision } from "@/lib/domains/chatbots/engine";
import { ChatbotCreateInput, ChatbotPatch, ChatbotTestBody } from "@/lib/domains/chatbots/schemas";
import { createChatbot, testChatbot, updateChatbot } from "@/lib/domains/chatbots/service";
import { resolveSender } from "@/lib/domains/senders/service";

export async function createChatbotAction(senderPhone: string, raw: unknown): Promise<ActionResult<{ uid: string }>> {
  const p = await requirePermission("chatbots");
  const result = await runAction(async () => {
    const sender = await resolveSender(p, senderPhone, { useDefault: false, requireSetup: false });
    if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
    const bot = await createChatbot(p, sender, ChatbotCreateInput.parse(raw));
    return { uid: bot.id };
  });
  if (result.ok) revalidatePath("/chatbots");
  return result;
}

/** Saves the editor, or (with only status) activates or deactivates. */
export async function updateChatbotAction(uid: string, raw: unknown): Promise<ActionResult> {
  const p = await requirePermission("chatbots");
  const result = await runAction(async () => {
    await updateChatbot(p, undefined, uid, ChatbotPatch.parse(raw));
    return undefined;
  });
  if (result.ok) revalidatePath("/chatbots");
  return result;
}

export async function testChatbotAction(uid: string, text: string): Promise<ActionResult<Decision>> {
  const p = await requirePermission("chatbots");
  return runAction(async () => {
    const { chatbotUid: _, ...decision } = await testChatbot(p, undefined, uid, ChatbotTestBody.parse({ text }).text);
    return decision;
  });
}

// A chatbot's template replies must fit their templates (lib/domains/templates/parameters.ts):
// checked when the bot is saved, so a customer learns it in the editor rather than from a
// reply that fails at every inbound message. The send path checks again when the reply goes
// out (the template may change in between). A template the account does not hold yet is left
// to the send, which refuses it as TEMPLATE_NOT_FOUND.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { findParameterProblem } from "@/lib/domains/templates/parameters";
import type { ChatbotReplyInput } from "./schemas";

type Replies = {
  rules?: { reply: ChatbotReplyInput }[];
  fallbackReply?: ChatbotReplyInput | null;
  businessHours?: { awayReply: ChatbotReplyInput } | null;
};

/** Every template reply with the path its field has in the API body. */
function templateReplies(input: Replies): { path: string; reply: Extract<ChatbotReplyInput, { type: "template" }> }[] {
  const all: { path: string; reply: ChatbotReplyInput | null | undefined }[] = [
    ...(input.rules ?? []).map((r, i) => ({ path: `body.chatbot.rules.${i}.reply`, reply: r.reply })),
    { path: "body.chatbot.fallbackReply", reply: input.fallbackReply },
    { path: "body.chatbot.businessHours.awayReply", reply: input.businessHours?.awayReply },
  ];
  return all.flatMap(({ path, reply }) => (reply?.type === "template" ? [{ path, reply }] : []));
}

export async function assertTemplateReplies(customerId: string, input: Replies): Promise<void> {
  const replies = templateReplies(input);
  if (replies.length === 0) return;
  const templates = await db.template.findMany({
    where: { customerId, name: { in: [...new Set(replies.map((r) => r.reply.template.name))] } },
    select: { name: true, language: true, components: true },
  });
  for (const { path, reply } of replies) {
    const { name, language, components } = reply.template;
    const template = templates.find((t) => t.name === name && t.language === language);
    const problem = template ? findParameterProblem(template.components, components ?? []) : null;
    if (!problem) continue;
    const message = `Template ${name} (${language}): ${problem.message}`;
    throw new ApiError("VALIDATION_FAILED", `${path.replace(/^body\./, "")}: ${message}`, {
      fields: [{ path: `${path}.template.components`, message }],
      component: problem.component,
      index: problem.index,
    });
  }
}

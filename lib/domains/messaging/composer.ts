// The dashboard composer's send: the same service and checks as the public send routes.
import type { Principal } from "@/lib/domains/auth/principal";
import { actionSender } from "@/lib/domains/senders/dashboard-scope";
import { chatPayload, templatePayload } from "./payloads";
import type { ComposerInput } from "./schemas";
import { sendMessage } from "./send";
import { toReceipt } from "./serializers";

export async function sendFromComposer(p: Principal, input: ComposerInput) {
  const sender = await actionSender(p, input.senderId);
  const result =
    input.mode === "template"
      ? await sendMessage(p, sender, {
          sendRoute: "send",
          recipient: input.to,
          payload: templatePayload({ to: input.to, template: input.template }),
          template: { name: input.template.name, language: input.template.language },
        })
      : await sendMessage(p, sender, {
          sendRoute: "chat",
          recipient: input.to,
          payload: chatPayload({ to: input.to, type: "text", text: input.text }),
        });
  return toReceipt(result, sender, "v3", false);
}

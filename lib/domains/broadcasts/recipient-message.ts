// What a recipient is sent: the template filled with its resolved parameters (also what the
// preview and the new-broadcast page render), and its message id, one per attempt.
import type { OutgoingMessage } from "@/lib/domains/messaging/outgoing";
import { componentsFor } from "@/lib/domains/templates/fill";
import type { Broadcast, Template } from "@/lib/generated/prisma/client";
import type { Claimed } from "./claiming";

/** A recipient's resolved parameters as the template form's values ("body.0", "header.0"). */
export function filledValues(parameters: { body?: string[]; header?: string[] } | null): Record<string, string> {
  const values: Record<string, string> = {};
  (parameters?.body ?? []).forEach((v, i) => {
    values[`body.${i}`] = v;
  });
  (parameters?.header ?? []).forEach((v, i) => {
    values[`header.${i}`] = v;
  });
  return values;
}

/** The local message id of a recipient's attempt: a second worker with the same row cannot record it again. */
export const recipientMessageId = (broadcastId: string, recipientId: bigint, attempt: number) =>
  `msg_${broadcastId}_${recipientId}_${attempt}`;

/** A claimed recipient's send: the template with its values, under its attempt's message id. */
export function outgoing(b: Broadcast, template: Template, r: Claimed): OutgoingMessage {
  const components = componentsFor(template.components, filledValues(r.parameters));
  return {
    sendRoute: "send",
    recipient: r.phoneNumber,
    template: { name: template.name, language: template.language },
    payload: {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: r.phoneNumber,
      type: "template",
      template: {
        name: template.name,
        language: { code: template.language },
        ...(components.length > 0 ? { components } : {}),
      },
    },
    messageId: recipientMessageId(b.id, r.id, r.attempts + 1),
    broadcastId: b.id,
    // Shown as the API's, named after the broadcast; never a person's reply (docs/reports.md "Definitions").
    sentBy: { by: "api", label: `Broadcast ${b.name}`, notAReply: true },
  };
}

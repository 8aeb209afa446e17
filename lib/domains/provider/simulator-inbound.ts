// An inbound message as the provider posts it (a `messages` change with the contact's
// profile), for the simulator's replies, `simulate:inbound` and tests.
import { randomBytes } from "node:crypto";
import type { CallbackChange } from "./simulator-callbacks";
import type { ProviderSender } from "./types";

export type InboundSpec = {
  /** E.164 or digits */
  from: string;
  text: string;
  name?: string | null;
  /** Default: a fresh wamid. */
  id?: string;
  /** Default: now. */
  at?: Date;
};

export const inboundWamid = () => `wamid.${randomBytes(24).toString("base64url")}`;

export function inboundTextChange(sender: ProviderSender, spec: InboundSpec): CallbackChange {
  const from = spec.from.replace(/\D/g, "");
  return messagesChange(sender, {
    contacts: [{ profile: { name: spec.name ?? `Contact ${from.slice(-4)}` }, wa_id: from }],
    messages: [
      {
        from,
        id: spec.id ?? inboundWamid(),
        timestamp: String(Math.floor((spec.at ?? new Date()).getTime() / 1000)),
        type: "text",
        text: { body: spec.text },
      },
    ],
  });
}

/** A `messages` change for the sender's number: `fields` (contacts, messages or statuses) under its metadata. */
export function messagesChange(sender: ProviderSender, fields: Record<string, unknown>): CallbackChange {
  return {
    entryId: sender.wabaId ?? sender.phoneNumberId,
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: {
        display_phone_number: sender.phoneNumber.replace(/^\+/, ""),
        phone_number_id: sender.phoneNumberId,
      },
      ...fields,
    },
  };
}

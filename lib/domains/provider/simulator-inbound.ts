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
  /** The provider id of the message it quotes (a quoted reply; a tap names the message tapped). */
  context?: string;
};

export const inboundWamid = () => `wamid.${randomBytes(24).toString("base64url")}`;

export function inboundTextChange(sender: ProviderSender, spec: InboundSpec): CallbackChange {
  return inboundChange(sender, spec, "text", { body: spec.text });
}

/** A contact taps a reply button or picks a list row of the message `spec.context`. */
export function inboundReplyChange(
  sender: ProviderSender,
  spec: Omit<InboundSpec, "text"> & {
    reply: { type: "button_reply" | "list_reply"; id: string; title: string; description?: string };
  },
): CallbackChange {
  const { type, ...reply } = spec.reply;
  return inboundChange(sender, spec, "interactive", { type, [type]: reply });
}

/** A contact reacts to the message `spec.messageId` (a provider id) with an emoji; "" removes theirs. */
export function inboundReactionChange(
  sender: ProviderSender,
  spec: Omit<InboundSpec, "text" | "context"> & { messageId: string; emoji: string },
): CallbackChange {
  return inboundChange(sender, spec, "reaction", { message_id: spec.messageId, emoji: spec.emoji });
}

/** The provider's object of an inbound file: `{id, mime_type, sha256, caption?, filename?, voice?}`. */
export type InboundMediaObject = {
  id: string;
  mime_type: string;
  sha256: string;
  caption?: string;
  filename?: string;
  voice?: boolean;
};

/** A contact sends a file (image, video, audio, document, sticker) the provider serves by its id. */
export function inboundMediaChange(
  sender: ProviderSender,
  spec: Omit<InboundSpec, "text"> & { kind: string; media: InboundMediaObject },
): CallbackChange {
  return inboundChange(sender, spec, spec.kind, spec.media);
}

function inboundChange(
  sender: ProviderSender,
  spec: Omit<InboundSpec, "text">,
  type: string,
  object: Record<string, unknown>,
): CallbackChange {
  const from = spec.from.replace(/\D/g, "");
  return messagesChange(sender, {
    contacts: [{ profile: { name: spec.name ?? `Contact ${from.slice(-4)}` }, wa_id: from }],
    messages: [
      {
        ...(spec.context ? { context: { from: sender.phoneNumber.replace(/^\+/, ""), id: spec.context } } : {}),
        from,
        id: spec.id ?? inboundWamid(),
        timestamp: String(Math.floor((spec.at ?? new Date()).getTime() / 1000)),
        type,
        [type]: object,
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

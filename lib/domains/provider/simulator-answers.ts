// What a simulated contact answers to a delivered message, when it answers at all
// (SIMULATOR_REPLY_RATE; docs/messaging.md "Provider and simulator"): a tap on one of its reply
// buttons or a pick from its list (SIMULATOR_TAP_RATE), else a reaction to it
// (SIMULATOR_REACTION_RATE), a photo (SIMULATOR_IMAGE_REPLY_RATE), or a text that quotes it
// (SIMULATOR_QUOTE_RATE) or not. Whether it taps, reacts or quotes is a roll; which button, row,
// emoji or text follows from the message's provider id, so one message always gets the same
// choice (a test or a demo can say which: `answerChoice`).
import { createHash } from "node:crypto";
import type { CallbackChange } from "./simulator-callbacks";
import { inboundReactionChange, inboundReplyChange, inboundTextChange } from "./simulator-inbound";
import { contactPhotoChange } from "./simulator-media";
import type { ProviderMessagePayload, ProviderSender } from "./types";

export type AnswerRates = {
  /** Share of the answers to a buttons or list message that tap a button or pick a row. */
  tapRate: number;
  /** Share of the other answers that are a reaction to the message. */
  reactionRate: number;
  /** Share of the remaining answers that are a photo. */
  imageReplyRate: number;
  /** Share of the text answers that quote the message. */
  quoteRate: number;
};

export type TappedReply = { type: "button_reply" | "list_reply"; id: string; title: string; description?: string };

export type ContactAnswer =
  | { kind: "tap"; reply: TappedReply }
  | { kind: "reaction"; emoji: string }
  | { kind: "photo" }
  | { kind: "text"; text: string; quote: boolean };

/** What simulated contacts write (never an opt-out keyword). */
export const CONTACT_REPLIES = [
  "Thanks!",
  "Got it, thank you 👍",
  "When will it arrive?",
  "Can I change the delivery address?",
  "Perfect, see you then",
  "Who is this?",
  "Is there a discount code?",
];
/** The emoji simulated contacts react with. */
export const CONTACT_REACTIONS = ["👍", "❤️", "🙏", "😮"];

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** A whole number below `count` that one provider message id (and purpose) always gives. */
export function answerChoice(messageId: string, count: number, purpose: "reply" | "emoji" | "text" = "reply"): number {
  if (count <= 0) return 0;
  return createHash("sha256").update(`${purpose}:${messageId}`).digest().readUInt32BE(0) % count;
}

/** The reply buttons or list rows of a provider `interactive` payload, in order: what a contact can tap. */
export function tappableReplies(payload: ProviderMessagePayload): TappedReply[] {
  if (payload.type !== "interactive") return [];
  const interactive = obj(payload.interactive);
  const action = obj(interactive?.action);
  if (interactive?.type === "button") {
    return list(action?.buttons).flatMap((b) => {
      const reply = obj(obj(b)?.reply);
      const id = str(reply?.id);
      return id ? [{ type: "button_reply" as const, id, title: str(reply?.title) ?? id }] : [];
    });
  }
  if (interactive?.type === "list") {
    return list(action?.sections).flatMap((s) =>
      list(obj(s)?.rows).flatMap((r) => {
        const row = obj(r);
        const id = str(row?.id);
        const description = str(row?.description);
        return id
          ? [{ type: "list_reply" as const, id, title: str(row?.title) ?? id, ...(description ? { description } : {}) }]
          : [];
      }),
    );
  }
  return [];
}

/** The answer to the message `messageId` (its payload as sent): `roll` decides the shares, the id the choices. */
export function chooseAnswer(
  payload: ProviderMessagePayload,
  messageId: string,
  rates: AnswerRates,
  roll: () => number = Math.random,
): ContactAnswer {
  const tappable = tappableReplies(payload);
  const tapped = tappable[answerChoice(messageId, tappable.length)];
  if (tapped && roll() < rates.tapRate) return { kind: "tap", reply: tapped };
  // Our own reaction is no message to react to or quote.
  const answerable = payload.type !== "reaction";
  if (answerable && roll() < rates.reactionRate) {
    return {
      kind: "reaction",
      emoji: CONTACT_REACTIONS[answerChoice(messageId, CONTACT_REACTIONS.length, "emoji")] ?? "👍",
    };
  }
  if (roll() < rates.imageReplyRate) return { kind: "photo" };
  const text = CONTACT_REPLIES[answerChoice(messageId, CONTACT_REPLIES.length, "text")] ?? "Thanks!";
  return { kind: "text", text, quote: answerable && roll() < rates.quoteRate };
}

/** The inbound callback of an answer from `to` to our message `messageId`, as the provider posts it. */
export async function answerChange(
  sender: ProviderSender,
  to: string,
  messageId: string,
  answer: ContactAnswer,
): Promise<CallbackChange> {
  switch (answer.kind) {
    case "tap":
      return inboundReplyChange(sender, { from: to, context: messageId, reply: answer.reply });
    case "reaction":
      return inboundReactionChange(sender, { from: to, messageId, emoji: answer.emoji });
    case "photo":
      return contactPhotoChange(sender, to);
    case "text":
      return inboundTextChange(sender, {
        from: to,
        text: answer.text,
        ...(answer.quote ? { context: messageId } : {}),
      });
  }
}

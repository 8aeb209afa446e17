// Which thread entries are a person's reply to the contact (docs/reports.md "Definitions"): sent
// by a member (`dashboard`) or through the API (`api`), and saying something. The business's
// reaction (a 👍 on the contact's message) answers nothing, as a contact's reaction asks nothing:
// the support figures, the chatbot's guard and the rules all read it the same way. Nor is a
// broadcast's message, though the thread shows it as the API's (`api`, labelled with the
// broadcast's name): its Message row names the broadcast.
import type { Prisma } from "@/lib/generated/prisma/client";

/** The one message type a person sends that answers nothing. */
const NO_ANSWER = "reaction";

/** The senders of a person's reply (ConversationMessage.sentBy). */
export const PERSON_SENT_BY = ["api", "dashboard"] as const;

/** A thread entry that is a person's reply (to combine with a conversation and a time). */
export const PERSON_REPLY_WHERE = {
  direction: "outbound",
  sentBy: { in: [...PERSON_SENT_BY] },
  type: { not: NO_ANSWER },
  // Every outbound entry has its Message row (outbound.ts); a broadcast's names the broadcast.
  message: { is: { broadcastId: null } },
} satisfies Prisma.ConversationMessageWhereInput;

/**
 * The same for SQL: thread entry `m` joined to its Message row `mm` (periods.ts). Built from
 * the constants above, which are literals.
 */
export const PERSON_REPLY_SQL = `m."direction" = 'outbound' AND m."sentBy" IN (${PERSON_SENT_BY.map((s) => `'${s}'`).join(", ")})
  AND m."type" <> '${NO_ANSWER}' AND mm."broadcastId" IS NULL`;

/** How long a person's reply holds the conversation: the chatbot stays quiet (docs/chatbots.md "Guards"). */
export const PERSON_HOLDS_MS = 30 * 60_000;

/** Whether a message of this type, sent by a person, answers the contact. */
export const answersContact = (type: string): boolean => type !== NO_ANSWER;

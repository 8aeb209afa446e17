// Which thread entries are a person's reply to the contact (docs/reports.md "Definitions"): sent
// by a member (`dashboard`) or through the API (`api`), and saying something. The business's
// reaction (a 👍 on the contact's message) answers nothing, as a contact's reaction asks nothing:
// the support figures, the chatbot's guard and the rules all read it the same way.
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
} satisfies Prisma.ConversationMessageWhereInput;

/** Whether a message of this type, sent by a person, answers the contact. */
export const answersContact = (type: string): boolean => type !== NO_ANSWER;

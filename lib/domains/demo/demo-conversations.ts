// The demo's conversations as lines (lib/domains/demo/seed-conversations.ts seeds them): who
// wrote what and when, the files, the reactions of both sides, the quoted replies and the demo
// bot's menu tapped and answered.
import type { InteractiveInput } from "@/lib/domains/messaging/interactive";
import { kettlePhoto, solePhoto, textPdf } from "./demo-files";
import { DEMO_BOT_HOURS, DEMO_BOT_MENU } from "./seed-chatbots";

/** A file a line carries (its text is the caption): made when the conversation is seeded. */
export type DemoFile = { kind: "image" | "document"; filename: string; bytes: () => Buffer };

/** A reaction on a line: the contact's or ours (docs/messaging.md "Reactions"). */
type DemoReaction = { by: "contact" | "business"; emoji: string; minutesAgo: number };
/** Every line may carry reactions, and may quote an earlier line of its conversation (its index). */
type Extras = { minutesAgo: number; reactions?: DemoReaction[]; quotes?: number };

export type Line = Extras &
  (
    | { in: string; file?: DemoFile }
    | { out: string; status: "read" | "delivered"; file?: DemoFile; bot?: boolean }
    | { template: string; status: "read" | "delivered" }
    /** The bot's reply buttons. */
    | { menu: InteractiveInput; status: "read" | "delivered"; bot: true }
    /** The contact taps one of the buttons of the line it quotes. */
    | { tap: { id: string; title: string } }
  );

export type DemoConversation = {
  senderIndex: number;
  contact: string;
  name: string;
  status: "OPEN" | "CLOSED";
  unread: number;
  lines: Line[];
};

export const DAY = 24 * 60;

const RECEIPT = textPdf("Acme Store - Receipt 1042", [
  "Date: 12 November",
  "1 x Kettle, brushed steel      49.00",
  "Shipping                        4.90",
  "Total                          53.90",
]);
const LABEL = textPdf("Return label - RMA 5521", [
  "From: Dana Okafor",
  "To: Acme Returns, Unit 4, Harbour Road",
  "Parcel: 1 x Kettle (damaged on arrival)",
  "Drop it at any post office: postage is paid.",
]);

export const CONVERSATIONS: DemoConversation[] = [
  {
    senderIndex: 0,
    contact: "+15551230001",
    name: "Ana Ruiz",
    status: "OPEN",
    unread: 2,
    lines: [
      { template: "order_update", minutesAgo: 2 * DAY, status: "read" },
      { in: "Hi, is my order on its way?", minutesAgo: 40 },
      {
        out: "Hi Ana! It left our warehouse this morning and should arrive tomorrow.",
        minutesAgo: 35,
        status: "read",
        reactions: [{ by: "contact", emoji: "👍", minutesAgo: 34 }],
      },
      { in: "Great, thanks! Can I still change the delivery address?", minutesAgo: 6 },
      { in: "It would be Calle Mayor 12, 3B", minutesAgo: 5 },
    ],
  },
  {
    senderIndex: 0,
    contact: "+15551230002",
    name: "Ben Carter",
    status: "CLOSED",
    unread: 0,
    lines: [
      { in: "Do you ship to Canada?", minutesAgo: 3 * DAY },
      { out: "We do! Shipping to Canada takes 3-5 business days.", minutesAgo: 3 * DAY - 10, status: "read" },
      { template: "order_update", minutesAgo: DAY, status: "delivered" },
    ],
  },
  {
    senderIndex: 1,
    contact: "+15551230003",
    name: "Chloé Martin",
    status: "OPEN",
    unread: 0,
    lines: [
      { template: "spring_sale", minutesAgo: 5 * 60, status: "read" },
      { in: "Do you have the blue jacket in size M?", minutesAgo: 2 * 60 },
      { out: "Yes, we do. Shall I reserve one for you?", minutesAgo: 110, status: "delivered" },
    ],
  },
  {
    senderIndex: 0,
    contact: "+15551230004",
    name: "Dana Okafor",
    status: "OPEN",
    unread: 1,
    lines: [
      { in: "Hello, my kettle arrived today and the lid is cracked", minutesAgo: 90 },
      {
        in: "This is how it came out of the box",
        minutesAgo: 89,
        file: { kind: "image", filename: "kettle-lid.png", bytes: kettlePhoto },
      },
      {
        in: "Here is my receipt",
        minutesAgo: 88,
        file: { kind: "document", filename: "receipt-1042.pdf", bytes: () => RECEIPT },
      },
      {
        out: "So sorry, Dana! Here is a prepaid return label; a new kettle ships today.",
        minutesAgo: 60,
        status: "read",
        file: { kind: "document", filename: "return-label-5521.pdf", bytes: () => LABEL },
      },
      // Dana quotes the label, and the agent answers her thanks with a heart.
      {
        in: "Printed it, thank you!",
        minutesAgo: 20,
        quotes: 3,
        reactions: [{ by: "business", emoji: "❤️", minutesAgo: 18 }],
      },
    ],
  },
  {
    senderIndex: 1,
    contact: "+15551230005",
    name: "Emil Novak",
    status: "OPEN",
    unread: 1,
    lines: [
      { out: "Hi Emil, how are the trainers holding up?", minutesAgo: 4 * 60, status: "read" },
      {
        in: "The sole is already worn through after two weeks",
        minutesAgo: 3 * 60,
        file: { kind: "image", filename: "sole.png", bytes: solePhoto },
      },
    ],
  },
  {
    // The demo bot's menu (on the second sender): Farah taps "Opening hours", the bot branches
    // on the button's id, and she reacts to the answer.
    senderIndex: 1,
    contact: "+15551230006",
    name: "Farah Haddad",
    status: "OPEN",
    unread: 0,
    lines: [
      { in: "Hello", minutesAgo: 26 },
      { menu: DEMO_BOT_MENU, minutesAgo: 26 - 0.1, status: "read", bot: true },
      { tap: { id: "hours", title: "Opening hours" }, minutesAgo: 25, quotes: 1 },
      {
        out: DEMO_BOT_HOURS,
        minutesAgo: 25 - 0.1,
        status: "read",
        bot: true,
        reactions: [{ by: "contact", emoji: "🙏", minutesAgo: 24 }],
      },
    ],
  },
];

// The demo's support history, as scripts (docs/reports.md "The demo's history"): 90 days of
// conversations between 120 returning contacts and the demo team, each a run of periods (the
// contact writes, a person answers, maybe a follow-up and a second answer, a close by the demo
// member or through the API; the second sender's chatbot greets first and hands off on
// "agent"), with the CSAT answers the contacts gave. Deterministic (a seeded PRNG) and
// relative to `now`; seed-support.ts writes the messages and replays the periods through
// the support module.
import { type Random, seededRandom } from "./random";

/**
 * The history's contacts: +15550199001 .. +15550199120 (no other demo number starts so). Many
 * contacts with a few requests each rather than a few with many: the replay's batches are as
 * many as the longest conversation's steps (seed-support.ts).
 */
export const HISTORY_PREFIX = "+15550199";
const HISTORY_CONTACTS = 120;
const HISTORY_DAYS = 90;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Who replied or closed: the demo member's email, or "api" (a reply or close through the API). */
type Person = string;

type HistoryMessage =
  | { kind: "in"; at: Date; text: string }
  | { kind: "bot"; at: Date; text: string }
  | { kind: "reply"; at: Date; text: string; by: Person };

/** What changes a period, in order (periods.ts): inbound arrivals, hand-offs, people's replies, closes. */
export type HistoryStep =
  | { kind: "inbound"; at: Date; count: number }
  | { kind: "handoff"; at: Date }
  | { kind: "reply"; at: Date; by: Person }
  | { kind: "close"; at: Date; by: Person };

type HistoryAnswer = { closedAt: Date; score: 1 | 2 | 3; comment: string | null; at: Date };

export type HistoryConversation = {
  contact: string;
  name: string;
  senderIndex: number;
  labels: string[];
  messages: HistoryMessage[];
  steps: HistoryStep[];
  /** The last close. */
  closedAt: Date;
  answers: HistoryAnswer[];
};

const FIRST = ["Olivia", "Liam", "Noah", "Emma", "Mia", "Lucas", "Sofia", "Mateo", "Aisha", "Yuki"];
const LAST = [
  "Silva",
  "Khan",
  "Müller",
  "Rossi",
  "Okoye",
  "Novak",
  "Garcia",
  "Larsen",
  "Haddad",
  "Tanaka",
  "Dubois",
  "Costa",
];

type Topic = { label: string | null; open: string; more: string; reply: string; again: string; answer: string };
const TOPICS: readonly (readonly [Topic, number])[] = [
  [
    {
      label: null,
      open: "Where is my order? It was due yesterday.",
      more: "The order number is A-1",
      reply: "Sorry for the wait! It is with the courier and arrives tomorrow.",
      again: "Can I get the tracking link?",
      answer: "Here it is: track.example.com/A1. Anything else?",
    },
    34,
  ],
  [
    {
      label: "refund",
      open: "I would like a refund for my last order, please.",
      more: "The item does not fit.",
      reply: "Of course. I have started the refund; it reaches your card in 3-5 days.",
      again: "Do I need to send the item back?",
      answer: "Yes, with the prepaid label we just emailed you.",
    },
    22,
  ],
  [
    {
      label: null,
      open: "Can I change the delivery address of my order?",
      more: "It should go to my office instead.",
      reply: "Yes, send me the new address and I will update it.",
      again: "Harbour Road 4, unit 2",
      answer: "Done: the courier has the new address.",
    },
    18,
  ],
  [
    {
      label: null,
      open: "Do you have the blue jacket in size L?",
      more: "Or in M if L is gone.",
      reply: "We have L in stock. Shall I reserve one for you?",
      again: "Yes please!",
      answer: "Reserved for 3 days under your number.",
    },
    16,
  ],
  [
    {
      label: null,
      open: "My invoice shows the wrong company name.",
      more: "It should be Acme Trading Ltd.",
      reply: "Thanks, I have corrected it and sent a new invoice.",
      again: "Got it, thanks. Is the VAT number on it too?",
      answer: "Yes, it is under the address.",
    },
    10,
  ],
];

const BOT_GREETING = "Hi! Welcome to Acme. Type hours for our opening hours, or agent to talk to a person.";
const BOT_HANDOFF = "Thanks! A member of our team will answer you here shortly.";
const COMMENTS: Record<1 | 2 | 3, string[]> = {
  1: ["Took far too long.", "Still waiting for my refund."],
  2: ["OK in the end.", "Fine, but slow."],
  3: ["Quick and friendly, thanks!", "Great help.", "Solved in minutes."],
};

// Most contacts write during the day (UTC).
const HOURS = [0, 0, 0, 0, 1, 1, 2, 4, 7, 10, 10, 9, 8, 8, 9, 9, 8, 7, 5, 4, 3, 2, 1, 1].map((w, h) => [h, w] as const);

/** A duration from weighted [min, max] ranges. */
const within = (r: Random, ranges: readonly (readonly [readonly [number, number], number])[]) => {
  const [lo, hi] = r.pick(ranges);
  return lo + Math.floor(r.next() * (hi - lo));
};
const FIRST_RESPONSE = [
  [[1 * MINUTE, 5 * MINUTE], 30],
  [[5 * MINUTE, 20 * MINUTE], 34],
  [[20 * MINUTE, 60 * MINUTE], 20],
  [[1 * HOUR, 3 * HOUR], 11],
  [[3 * HOUR, 8 * HOUR], 5],
] as const;
const NEXT_RESPONSE = [
  [[30 * SECOND, 5 * MINUTE], 50],
  [[5 * MINUTE, 30 * MINUTE], 35],
  [[30 * MINUTE, 2 * HOUR], 15],
] as const;
const TO_CLOSE = [
  [[5 * MINUTE, 30 * MINUTE], 50],
  [[30 * MINUTE, 3 * HOUR], 28],
  [[3 * HOUR, 12 * HOUR], 13],
  [[26 * HOUR, 50 * HOUR], 9],
] as const;

/** Out of hours (before 8:00 or from 19:00 UTC) a first answer waits for the morning. */
function morningAfter(t: number, r: Random): number {
  const d = new Date(t);
  const hour = d.getUTCHours();
  if (hour >= 8 && hour < 19) return t;
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + (hour >= 19 ? DAY : 0);
  return day + 8 * HOUR + r.int(5, 40) * MINUTE;
}

type Draft = HistoryConversation & { busyUntil: number };

/** One period of a conversation from `start`: its messages, steps and answer; its end, or null when it would reach now. */
function period(c: Draft, start: number, now: number, r: Random, member: Person) {
  const topic = r.pick(TOPICS);
  const messages: HistoryMessage[] = [{ kind: "in", at: new Date(start), text: topic.open }];
  const steps: HistoryStep[] = [];
  let t = start;
  let inbound = 1;
  let waitFrom = start;
  if (c.senderIndex === 1) {
    // The chatbot holds the conversation: it greets, the contact asks for a person, it hands off.
    messages.push({ kind: "bot", at: new Date(t + 2 * SECOND), text: BOT_GREETING });
    t += r.int(20, 60) * SECOND;
    messages.push({ kind: "in", at: new Date(t), text: "agent" });
    inbound += 1;
    t += 2 * SECOND;
    messages.push({ kind: "bot", at: new Date(t), text: BOT_HANDOFF });
    waitFrom = t;
  } else if (r.next() < 0.4) {
    t += r.int(20, 90) * SECOND;
    messages.push({ kind: "in", at: new Date(t), text: topic.more });
    inbound += 1;
  }
  steps.push({ kind: "inbound", at: new Date(start), count: inbound });
  if (c.senderIndex === 1) steps.push({ kind: "handoff", at: new Date(waitFrom) });
  const by = r.next() < 0.85 ? member : "api";
  t = Math.max(morningAfter(waitFrom, r) + within(r, FIRST_RESPONSE), t + 30 * SECOND);
  messages.push({ kind: "reply", at: new Date(t), text: topic.reply, by });
  steps.push({ kind: "reply", at: new Date(t), by });
  if (r.next() < 0.45) {
    t += r.int(2, 40) * MINUTE;
    messages.push({ kind: "in", at: new Date(t), text: topic.again });
    steps.push({ kind: "inbound", at: new Date(t), count: 1 });
    t += within(r, NEXT_RESPONSE);
    messages.push({ kind: "reply", at: new Date(t), text: topic.answer, by });
    steps.push({ kind: "reply", at: new Date(t), by });
  }
  const closedBy = r.next() < 0.8 ? member : "api";
  t += within(r, TO_CLOSE);
  const closedAt = t;
  steps.push({ kind: "close", at: new Date(closedAt), by: closedBy });
  // A member's close asks for a rating; about half the contacts tap one, some add a comment.
  let answer: HistoryAnswer | null = null;
  if (closedBy === member && r.next() < 0.55) {
    const score = r.pick([
      [3, 68],
      [2, 19],
      [1, 13],
    ] as const);
    const comments = COMMENTS[score];
    const comment = r.next() < 0.35 ? (comments[r.int(0, comments.length - 1)] ?? null) : null;
    answer = { closedAt: new Date(closedAt), score, comment, at: new Date(closedAt + r.int(1, 30) * MINUTE) };
  }
  const end = answer ? answer.at.getTime() : closedAt;
  if (end > now - 10 * MINUTE) return null;
  return { messages, steps, answer, closedAt, label: topic.label };
}

/** The history's conversations, each closed, with at least one period. */
export function supportHistory(now: Date, member: Person): HistoryConversation[] {
  const r = seededRandom(35_090);
  const drafts: Draft[] = Array.from({ length: HISTORY_CONTACTS }, (_, i) => ({
    contact: `${HISTORY_PREFIX}${String(i + 1).padStart(3, "0")}`,
    name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`,
    // Three in four write to Acme Support; the rest to Acme Marketing, where the chatbot answers first.
    senderIndex: i % 4 === 3 ? 1 : 0,
    // One in five is a VIP (the VIP SLA policy applies to them).
    labels: i % 5 === 0 ? ["VIP"] : [],
    messages: [],
    steps: [],
    closedAt: new Date(0),
    answers: [],
    busyUntil: 0,
  }));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const lastLabel = new Map<Draft, string | null>();
  for (let ago = HISTORY_DAYS - 1; ago >= 0; ago--) {
    const day = today - ago * DAY;
    const weekend = [0, 6].includes(new Date(day).getUTCDay());
    const starts = Array.from(
      { length: weekend ? r.int(1, 3) : r.int(3, 7) },
      () => day + r.pick(HOURS) * HOUR + r.int(0, 59) * MINUTE + r.int(0, 59) * SECOND,
    ).sort((a, b) => a - b);
    for (const start of starts) {
      const c = drafts[r.int(0, drafts.length - 1)];
      if (!c || c.busyUntil > start) continue;
      const p = period(c, start, now.getTime(), r, member);
      if (!p) continue;
      c.messages.push(...p.messages);
      c.steps.push(...p.steps);
      if (p.answer) c.answers.push(p.answer);
      c.closedAt = new Date(p.closedAt);
      c.busyUntil = (p.answer?.at.getTime() ?? p.closedAt) + 30 * MINUTE;
      lastLabel.set(c, p.label);
    }
  }
  return drafts
    .filter((c) => c.steps.length > 0)
    .map((c) => {
      const label = lastLabel.get(c);
      // The last request's topic labels the conversation (refund), a few wait for a follow-up.
      const labels = [...c.labels, ...(label ? [label] : []), ...(c.contact.endsWith("7") ? ["follow-up"] : [])];
      return {
        contact: c.contact,
        name: c.name,
        senderIndex: c.senderIndex,
        labels,
        messages: c.messages,
        steps: c.steps,
        closedAt: c.closedAt,
        answers: c.answers,
      };
    });
}

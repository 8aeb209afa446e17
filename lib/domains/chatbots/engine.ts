// The chatbot rule engine (docs/chatbots.md): pure, no database. Given a bot's rules and an
// inbound text it decides the one reply (or none); the guards say whether a bot may
// answer at all (hand-off, the reply cap, message kinds). Customer regexes run in re2js,
// a linear-time engine (RE2's automata): V8's backtracking RegExp would let a pattern
// such as (a+)+$ stall the process for minutes on one message.
import { RE2JS } from "re2js";
import type { InteractiveInput, InteractiveType } from "@/lib/domains/messaging/interactive";
import { PERSON_HOLDS_MS } from "@/lib/domains/support/person-reply";

export const MATCH_TYPES = ["keyword", "contains", "regex", "any", "reply_id"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export type TemplateReply = { name: string; language: string; components?: Record<string, unknown>[] };
/** Buttons, a list or a link: the `interactive` object of /chat (lib/domains/messaging/interactive.ts). */
export type InteractiveReply = { type: InteractiveType; interactive: InteractiveInput };
export type Reply = { type: "text"; text: string } | { type: "template"; template: TemplateReply } | InteractiveReply;

export type Rule = {
  match: { type: MatchType; value?: string; caseSensitive?: boolean };
  reply: Reply;
  handoff?: boolean;
};

export type DayHours = { day: number; open: string; close: string };
export type BusinessHours = { timezone: string; days: DayHours[]; awayReply: Reply };

export type BotConfig = { rules: Rule[]; fallbackReply?: Reply | null; businessHours?: BusinessHours | null };

/** Limits that keep a bot's work per message small and bounded. */
export const LIMITS = {
  rules: 50,
  valueLength: 500,
  textLength: 4096,
  /** Longest inbound text the engine looks at (the provider's own text limit). */
  inboundLength: 4096,
  /** Largest repetition bound ({n}, {n,}, {n,m}) in a pattern. */
  repeat: 100,
  /** Compiled size (RE2 instructions) of all of a bot's patterns together. */
  programSize: 1_000,
} as const;

/** At most this many bot replies per contact in the window (no loops with another bot). */
export const REPLY_CAP = { max: 5, windowMs: 10 * 60_000 } as const;
/** A person's reply or a hand-off rule silences the bot for this long (the periods read the same, person-reply.ts). */
export const HANDOFF_MS = PERSON_HOLDS_MS;

export type Decision = {
  /** Index of the rule that answered; null for the fallback, the away reply or no reply. */
  matchedRule: number | null;
  reply: Reply | null;
  handoff: boolean;
  withinBusinessHours: boolean;
};

// Compiled patterns are reused across messages; the cache is bounded.
const compiled = new Map<string, RE2JS>();

/** Compiles a customer pattern in re2js; throws with RE2's message when it is invalid. */
export function compilePattern(pattern: string, caseSensitive = false): RE2JS {
  const key = `${caseSensitive ? "s" : "i"}:${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    re = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    if (compiled.size >= 1_000) compiled.clear();
    compiled.set(key, re);
  }
  return re;
}

/** Undefined when the pattern compiles in re2js, else the reason it does not. */
export function patternError(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The compiled size (RE2 instructions) of a valid pattern: its cost per character of text. */
export const programSizeOf = (pattern: string, caseSensitive = false) =>
  compilePattern(pattern, caseSensitive).programSize();

/**
 * The largest repetition bound written in a pattern ({3}, {2,}, {1,1000}); escapes, \Q...\E
 * quotes and character classes are skipped (a brace there is a literal).
 */
export function largestRepeat(pattern: string): number {
  let largest = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      if (pattern[i + 1] === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        i = end < 0 ? pattern.length : end + 1;
      } else i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") {
      inClass = true;
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++; // a ] first in a class is a literal
      continue;
    }
    if (c === "{") {
      const bound = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i));
      if (bound) {
        largest = Math.max(largest, Number(bound[1]), Number(bound[2] || 0));
        i += bound[0].length - 1;
      }
    }
  }
  return largest;
}

/** Whether a bot needs the rule worker pool (rule-pool.ts): only patterns can take long. */
export const hasPatterns = (bot: BotConfig) => bot.rules.some((rule) => rule.match.type === "regex");

const fold = (s: string, caseSensitive: boolean) => (caseSensitive ? s : s.toLowerCase());

/**
 * Whether a rule matches an inbound message: its text, and for a tap on our buttons or a
 * pick from our list the reply id (a reply_id rule matches that id exactly, nothing else).
 */
export function ruleMatches(rule: Rule, text: string, replyId?: string | null): boolean {
  const { type, value = "", caseSensitive = false } = rule.match;
  switch (type) {
    case "any":
      return true;
    case "reply_id":
      return typeof replyId === "string" && value !== "" && replyId === value;
    case "keyword":
      return fold(text.trim(), caseSensitive) === fold(value.trim(), caseSensitive);
    case "contains":
      return value !== "" && fold(text, caseSensitive).includes(fold(value, caseSensitive));
    case "regex":
      return compilePattern(value, caseSensitive).matcher(text).find();
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    if (formatters.size >= 500) formatters.clear();
    formatters.set(timezone, f);
  }
  return f;
}

/** True for an IANA zone name the runtime's ICU knows (e.g. Europe/Berlin). */
export function isTimeZone(timezone: string): boolean {
  if (timezone.trim() === "" || timezone.length > 64) return false;
  try {
    formatterFor(timezone);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall-clock weekday (0 = Sunday) and minute of the day at `now` in `timezone`. */
export function localTime(now: Date, timezone: string): { day: number; minute: number } {
  const parts = formatterFor(timezone).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: WEEKDAYS.indexOf(get("weekday")), minute: Number(get("hour")) * 60 + Number(get("minute")) };
}

/** "HH:MM" (00:00 to 24:00) as minutes since midnight. */
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `now` falls in one of the opening windows. A window whose close is not after
 * its open runs past midnight into the next day (Friday 22:00-02:00 covers Saturday 01:00).
 */
export function withinBusinessHours(hours: BusinessHours, now: Date): boolean {
  const { day, minute } = localTime(now, hours.timezone);
  return hours.days.some((d) => {
    const open = minutesOf(d.open);
    const close = minutesOf(d.close);
    if (open < close) return d.day === day && minute >= open && minute < close;
    return (d.day === day && minute >= open) || ((d.day + 1) % 7 === day && minute < close);
  });
}

/**
 * The bot's answer to one inbound text (and the reply id of a tap): outside business hours the away reply; else the
 * first rule that matches (its hand-off flag with it); else the fallback; else nothing.
 */
export function decide(bot: BotConfig, rawText: string, now: Date, replyId?: string | null): Decision {
  const text = rawText.slice(0, LIMITS.inboundLength);
  const open = bot.businessHours ? withinBusinessHours(bot.businessHours, now) : true;
  if (!open && bot.businessHours) {
    return { matchedRule: null, reply: bot.businessHours.awayReply, handoff: false, withinBusinessHours: false };
  }
  const index = bot.rules.slice(0, LIMITS.rules).findIndex((rule) => ruleMatches(rule, text, replyId));
  const rule = bot.rules[index];
  if (rule) return { matchedRule: index, reply: rule.reply, handoff: rule.handoff === true, withinBusinessHours: open };
  return { matchedRule: null, reply: bot.fallbackReply ?? null, handoff: false, withinBusinessHours: open };
}

/** What the runner knows about the inbound message and the conversation's recent past. */
export type GuardInput = {
  /** The provider message type (text, image, reaction, ...). */
  messageType: string;
  /** The inbound was an opt-out or opt-in keyword (those win over bots). */
  optKeyword: boolean;
  /** The last time a person (dashboard or API) sent to this contact, if any. */
  lastHumanReplyAt: Date | null;
  /** The last time a hand-off rule answered this contact, if any. */
  lastHandoffAt: Date | null;
  /** When the conversation was last closed, if it was (closing ends a hand-off). */
  closedAt: Date | null;
  /** Times of this bot's replies to this contact (only the last REPLY_CAP.windowMs matter). */
  recentReplyTimes: Date[];
  now: Date;
};

export type GuardVerdict = { answer: true } | { answer: false; reason: string };

const NEVER_ANSWERED = new Set(["reaction", "status", "system", "unsupported", "ephemeral"]);

/** Whether the bot may answer at all (docs/chatbots.md "Guards"). */
export function guard(input: GuardInput): GuardVerdict {
  if (NEVER_ANSWERED.has(input.messageType))
    return { answer: false, reason: `a ${input.messageType} is never answered` };
  if (input.optKeyword) return { answer: false, reason: "opt-out keywords win over chatbots" };
  const since = input.now.getTime() - HANDOFF_MS;
  const closed = input.closedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const handoffAt = Math.max(input.lastHumanReplyAt?.getTime() ?? 0, input.lastHandoffAt?.getTime() ?? 0);
  if (handoffAt > since && handoffAt > closed) return { answer: false, reason: "the conversation is with a person" };
  const windowStart = input.now.getTime() - REPLY_CAP.windowMs;
  const recent = input.recentReplyTimes.filter((t) => t.getTime() > windowStart).length;
  if (recent >= REPLY_CAP.max) return { answer: false, reason: "reply cap reached for this contact" };
  return { answer: true };
}

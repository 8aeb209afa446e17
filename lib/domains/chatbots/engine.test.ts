import { describe, expect, it } from "vitest";
import {
  type BotConfig,
  compilePattern,
  decide,
  type GuardInput,
  guard,
  HANDOFF_MS,
  isTimeZone,
  largestRepeat,
  patternError,
  programSizeOf,
  REPLY_CAP,
  type Rule,
  withinBusinessHours,
} from "./engine";

const text = (t: string) => ({ type: "text" as const, text: t });
const rule = (
  type: Rule["match"]["type"],
  value: string | undefined,
  reply: string,
  extra: Partial<Rule> = {},
): Rule => ({
  match: { type, ...(value === undefined ? {} : { value }) },
  reply: text(reply),
  ...extra,
});
const NOW = new Date("2026-11-23T12:00:00Z");

describe("rule matching", () => {
  it("keyword is the whole message after trimming, case-insensitive", () => {
    const bot: BotConfig = { rules: [rule("keyword", " Hours ", "We open at 9")] };
    expect(decide(bot, "  hOURS \n", NOW)).toMatchObject({ matchedRule: 0, reply: text("We open at 9") });
    expect(decide(bot, "what are your hours?", NOW).matchedRule).toBeNull();
  });

  it("contains is a substring", () => {
    const bot: BotConfig = { rules: [rule("contains", "price", "See our prices")] };
    expect(decide(bot, "What is the PRICE of X?", NOW).matchedRule).toBe(0);
    expect(decide(bot, "how much", NOW).matchedRule).toBeNull();
  });

  it("regex is a search (not anchored) and case-insensitive by default", () => {
    const bot: BotConfig = { rules: [rule("regex", "order\\s*#?\\d{4,}", "Looking it up")] };
    expect(decide(bot, "where is ORDER #12345 please", NOW).matchedRule).toBe(0);
    expect(decide(bot, "order 12", NOW).matchedRule).toBeNull();
  });

  it("any matches every message, even an empty caption", () => {
    const bot: BotConfig = { rules: [rule("any", undefined, "Hello!")] };
    expect(decide(bot, "", NOW)).toMatchObject({ matchedRule: 0, reply: text("Hello!") });
  });

  it("caseSensitive makes keyword, contains and regex exact", () => {
    const bot: BotConfig = {
      rules: [
        { match: { type: "keyword", value: "VIP", caseSensitive: true }, reply: text("k") },
        { match: { type: "contains", value: "SALE", caseSensitive: true }, reply: text("c") },
        { match: { type: "regex", value: "^Hi$", caseSensitive: true }, reply: text("r") },
      ],
    };
    expect(decide(bot, "vip", NOW).matchedRule).toBeNull();
    expect(decide(bot, "VIP", NOW).matchedRule).toBe(0);
    expect(decide(bot, "big sale", NOW).matchedRule).toBeNull();
    expect(decide(bot, "big SALE", NOW).matchedRule).toBe(1);
    expect(decide(bot, "hi", NOW).matchedRule).toBeNull();
    expect(decide(bot, "Hi", NOW).matchedRule).toBe(2);
  });

  it("rules are tried in order and the first match wins", () => {
    const bot: BotConfig = {
      rules: [
        rule("contains", "refund", "first"),
        rule("contains", "order", "second"),
        rule("any", undefined, "third"),
      ],
    };
    expect(decide(bot, "refund my order", NOW)).toMatchObject({ matchedRule: 0, reply: text("first") });
    expect(decide(bot, "my order", NOW)).toMatchObject({ matchedRule: 1, reply: text("second") });
    expect(decide(bot, "hello", NOW)).toMatchObject({ matchedRule: 2, reply: text("third") });
  });

  it("the fallback answers when no rule matches, and nothing without one", () => {
    const rules = [rule("keyword", "hours", "9-5")];
    expect(decide({ rules, fallbackReply: text("Sorry?") }, "x", NOW)).toEqual({
      matchedRule: null,
      reply: text("Sorry?"),
      handoff: false,
      withinBusinessHours: true,
    });
    expect(decide({ rules }, "x", NOW).reply).toBeNull();
  });

  it("a hand-off rule says so, with its reply", () => {
    const bot: BotConfig = { rules: [rule("keyword", "agent", "A person will answer", { handoff: true })] };
    expect(decide(bot, "Agent", NOW)).toMatchObject({
      matchedRule: 0,
      handoff: true,
      reply: text("A person will answer"),
    });
    expect(decide(bot, "robot", NOW).handoff).toBe(false);
  });

  it("template replies come back as they are", () => {
    const reply = { type: "template" as const, template: { name: "welcome", language: "en" } };
    expect(decide({ rules: [{ match: { type: "any" }, reply }] }, "hi", NOW).reply).toEqual(reply);
  });
});

describe("regexes run in linear time", () => {
  it("(a+)+$ on a long input returns fast (it would stall V8's RegExp)", () => {
    const input = `${"a".repeat(100_000)}b`;
    const started = performance.now();
    expect(compilePattern("(a+)+$").matcher(input).find()).toBe(false);
    const bot: BotConfig = { rules: [rule("regex", "(a+)+$", "never"), rule("regex", "(x+x+)+y", "never")] };
    // The engine looks at the first 4,096 characters (the provider's text limit).
    expect(decide(bot, `${"a".repeat(4_095)}b`, NOW).matchedRule).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("invalid patterns and backtracking-only syntax are reported", () => {
    expect(patternError("(a")).toMatch(/missing closing/);
    expect(patternError("(?=a)b")).toBeTruthy();
    expect(patternError("(a)\\1")).toBeTruthy();
    expect(patternError("^order\\d+$")).toBeUndefined();
  });
});

describe("pattern complexity (what the save-time limits read)", () => {
  it("finds the largest repetition bound, not braces that are literals", () => {
    expect(largestRepeat("(?:\\p{L}|\\p{N}){1,1000}Z")).toBe(1000);
    expect(largestRepeat("a{3}b{2,}c{4,7}")).toBe(7);
    expect(largestRepeat("order\\d+")).toBe(0);
    expect(largestRepeat("\\{500\\}")).toBe(0);
    expect(largestRepeat("[{500}]x")).toBe(0);
    expect(largestRepeat("[]{500}]x{2}")).toBe(2);
    expect(largestRepeat("\\Qa{500}\\Eb{3}")).toBe(3);
    expect(largestRepeat("x{,5}")).toBe(0); // RE2 reads {,5} as literal text
  });

  it("measures a pattern's compiled size: the work per character of text", () => {
    expect(programSizeOf("hello")).toBeLessThan(20);
    expect(programSizeOf("(?:\\p{L}|\\p{N}|\\p{P}|\\p{S}){1,100}Z")).toBeGreaterThan(200);
  });
});

describe("business hours", () => {
  const newYork = {
    timezone: "America/New_York",
    days: [{ day: 0, open: "09:00", close: "17:00" }],
    awayReply: text("Closed"),
  };

  it("follow the zone's wall clock across a DST change", () => {
    // 13:30 UTC is 08:30 on Sunday 1 March (EST, UTC-5) but 09:30 on Sunday 8 March (EDT, UTC-4).
    expect(withinBusinessHours(newYork, new Date("2026-03-01T13:30:00Z"))).toBe(false);
    expect(withinBusinessHours(newYork, new Date("2026-03-08T13:30:00Z"))).toBe(true);
    // And back: 13:30 UTC on Sunday 1 November is 08:30 EST again.
    expect(withinBusinessHours(newYork, new Date("2026-10-25T13:30:00Z"))).toBe(true);
    expect(withinBusinessHours(newYork, new Date("2026-11-01T13:30:00Z"))).toBe(false);
  });

  it("a window that closes after midnight covers the next morning", () => {
    // Friday 22:00 to 02:00 in Berlin (UTC+1 in November); 20 November 2026 is a Friday.
    const late = { timezone: "Europe/Berlin", days: [{ day: 5, open: "22:00", close: "02:00" }], awayReply: text("z") };
    expect(withinBusinessHours(late, new Date("2026-11-20T20:59:00Z"))).toBe(false); // Fri 21:59
    expect(withinBusinessHours(late, new Date("2026-11-20T22:00:00Z"))).toBe(true); // Fri 23:00
    expect(withinBusinessHours(late, new Date("2026-11-21T00:59:00Z"))).toBe(true); // Sat 01:59
    expect(withinBusinessHours(late, new Date("2026-11-21T01:00:00Z"))).toBe(false); // Sat 02:00
    expect(withinBusinessHours(late, new Date("2026-11-21T21:30:00Z"))).toBe(false); // Sat 22:30
  });

  it("24:00 closes at the end of the day", () => {
    const allDay = { timezone: "UTC", days: [{ day: 1, open: "00:00", close: "24:00" }], awayReply: text("z") };
    expect(withinBusinessHours(allDay, new Date("2026-11-23T00:00:00Z"))).toBe(true);
    expect(withinBusinessHours(allDay, new Date("2026-11-23T23:59:00Z"))).toBe(true);
    expect(withinBusinessHours(allDay, new Date("2026-11-24T00:00:00Z"))).toBe(false);
  });

  it("outside hours the away reply answers instead of the rules", () => {
    const bot: BotConfig = { rules: [rule("any", undefined, "Hi")], businessHours: newYork };
    expect(decide(bot, "hello", new Date("2026-03-01T13:30:00Z"))).toEqual({
      matchedRule: null,
      reply: text("Closed"),
      handoff: false,
      withinBusinessHours: false,
    });
    expect(decide(bot, "hello", new Date("2026-03-08T13:30:00Z"))).toMatchObject({
      matchedRule: 0,
      withinBusinessHours: true,
    });
  });

  it("knows IANA zones and refuses others", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});

describe("guards", () => {
  const base: GuardInput = {
    messageType: "text",
    optKeyword: false,
    lastHumanReplyAt: null,
    lastHandoffAt: null,
    closedAt: null,
    recentReplyTimes: [],
    now: NOW,
  };
  const ago = (ms: number) => new Date(NOW.getTime() - ms);

  it("answers an ordinary text", () => {
    expect(guard(base)).toEqual({ answer: true });
  });

  it("never answers reactions or statuses, nor opt-out keywords", () => {
    expect(guard({ ...base, messageType: "reaction" }).answer).toBe(false);
    expect(guard({ ...base, messageType: "status" }).answer).toBe(false);
    expect(guard({ ...base, optKeyword: true }).answer).toBe(false);
    expect(guard({ ...base, messageType: "image" }).answer).toBe(true);
  });

  it("a person's reply or a hand-off rule silences the bot for 30 minutes", () => {
    expect(guard({ ...base, lastHumanReplyAt: ago(HANDOFF_MS - 1_000) }).answer).toBe(false);
    expect(guard({ ...base, lastHumanReplyAt: ago(HANDOFF_MS + 1_000) }).answer).toBe(true);
    expect(guard({ ...base, lastHandoffAt: ago(60_000) }).answer).toBe(false);
    // Closing the conversation after the hand-off ends it.
    expect(guard({ ...base, lastHandoffAt: ago(60_000), closedAt: ago(30_000) }).answer).toBe(true);
  });

  it("caps replies at 5 per contact per 10 minutes", () => {
    const four = [1, 2, 3, 4].map((m) => ago(m * 60_000));
    expect(guard({ ...base, recentReplyTimes: four }).answer).toBe(true);
    expect(guard({ ...base, recentReplyTimes: [...four, ago(9 * 60_000)] })).toEqual({
      answer: false,
      reason: "reply cap reached for this contact",
    });
    // Replies older than the window no longer count.
    expect(guard({ ...base, recentReplyTimes: [...four, ago(REPLY_CAP.windowMs + 1)] }).answer).toBe(true);
  });
});

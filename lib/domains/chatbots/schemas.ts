// One zod module for chatbots (docs/chatbots.md): create and update bodies, list query,
// the dry-run test body, and the public shapes. The API router, the dashboard editor and
// the OpenAPI document use these. Every refusal names its field (rules.2.match.value,
// businessHours.timezone, ...), so a customer knows which rule to fix.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { ResourceName } from "@/lib/core/resource-name";
import { hasNoControlChars } from "@/lib/core/storable-text";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import {
  checkInteractiveParts,
  INTERACTIVE_LIMITS,
  INTERACTIVE_TYPES,
  Interactive,
} from "@/lib/domains/messaging/interactive";
import { isTimeZone, LIMITS, largestRepeat, MATCH_TYPES, minutesOf, patternError, programSizeOf } from "./engine";

export const CHATBOT_STATUSES = ["ACTIVE", "INACTIVE"] as const;
export const ChatbotStatus = z.enum(CHATBOT_STATUSES, { error: "status must be ACTIVE or INACTIVE" });

const Name = ResourceName;

const ReplyText = z
  .string({ error: "text must be a string" })
  .trim()
  .min(1, "text must not be empty")
  .max(LIMITS.textLength, `text must be at most ${LIMITS.textLength} characters`)
  .refine((v) => hasNoControlChars(v, true), "text must not contain control characters");

const TemplateRef = z.strictObject(
  {
    name: z
      .string({ error: "template.name must be a string" })
      .trim()
      .min(1, "template.name is required")
      .max(512, "template.name must be at most 512 characters")
      .regex(/^[a-z0-9_]+$/, "template.name must use lower-case letters, digits and _"),
    language: z
      .string({ error: "template.language must be a string" })
      .trim()
      .min(2, "template.language is required (e.g. en or en_US)")
      .max(15, "template.language must be at most 15 characters")
      .regex(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, "template.language must be a language code such as en or en_US"),
    components: z
      .array(z.record(z.string(), z.unknown()), { error: "template.components must be an array of objects" })
      .max(10, "template.components must have at most 10 entries")
      .optional(),
  },
  { error: "template must be an object with name and language" },
);

export const ChatbotReplySchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("text"), text: ReplyText }),
    z.strictObject({ type: z.literal("template"), template: TemplateRef }),
    // Buttons, a list or a link: the `interactive` object of /chat, under the same limits.
    z
      .strictObject({ type: z.enum(INTERACTIVE_TYPES), interactive: Interactive })
      .superRefine((r, ctx) => checkInteractiveParts(r.type, r.interactive, ctx, ["interactive"])),
  ],
  {
    error:
      'reply must be {type: "text", text}, {type: "template", template: {name, language}} or {type: "buttons"|"list"|"cta_url", interactive}',
  },
);
export type ChatbotReplyInput = z.output<typeof ChatbotReplySchema>;

const MatchSchema = z.strictObject(
  {
    type: z.enum(MATCH_TYPES, { error: `match.type must be one of ${MATCH_TYPES.join(", ")}` }),
    value: z
      .string({ error: "match.value must be a string" })
      .max(LIMITS.valueLength, `match.value must be at most ${LIMITS.valueLength} characters`)
      .refine((v) => hasNoControlChars(v), "match.value must not contain control characters")
      .optional(),
    caseSensitive: z.boolean({ error: "match.caseSensitive must be true or false" }).optional(),
  },
  { error: "match must be an object with type and value" },
);

export const RuleSchema = z.strictObject(
  {
    match: MatchSchema,
    reply: ChatbotReplySchema,
    handoff: z.boolean({ error: "handoff must be true or false" }).optional(),
  },
  { error: "each rule must be an object with match and reply" },
);

/** Rules in order: each must be able to match, and a rule after an `any` never could. */
export const RulesSchema = z
  .array(RuleSchema, { error: "rules must be an array" })
  .max(LIMITS.rules, `rules must have at most ${LIMITS.rules} entries`)
  .superRefine((rules, ctx) => {
    const keywords = new Map<string, number>();
    const replyIds = new Map<string, number>();
    let anyAt = -1;
    let programSize = 0;
    rules.forEach((rule, i) => {
      const { type, value, caseSensitive } = rule.match;
      const at = (message: string, ...path: (string | number)[]) =>
        ctx.addIssue({ code: "custom", path: [i, "match", ...path], message });
      if (anyAt >= 0) at(`rule ${i} can never match: rule ${anyAt} (any) answers every message first`, "type");
      if (type === "any") {
        if (value !== undefined && value !== "") at("an any rule takes no value", "value");
        if (anyAt < 0) anyAt = i;
        return;
      }
      if (value === undefined || value.trim() === "") {
        at(`a ${type} rule needs a non-empty value`, "value");
        return;
      }
      if (type === "regex") {
        // Linear time is not cheap time: every instruction of every pattern runs per character
        // of text, so a bot's patterns are bounded together (docs/chatbots.md "Patterns").
        const error = patternError(value);
        const repeat = largestRepeat(value);
        if (error) at(`invalid regex: ${error}`, "value");
        else if (repeat > LIMITS.repeat) {
          at(`a repetition bound of ${repeat} is over the limit of ${LIMITS.repeat}`, "value");
        } else {
          const size = programSizeOf(value, caseSensitive);
          programSize += size;
          if (programSize > LIMITS.programSize) {
            at(
              `the bot's patterns together compile to more than ${LIMITS.programSize} instructions (this one: ${size}); simplify it or an earlier one`,
              "value",
            );
          }
        }
      }
      if (type === "reply_id") {
        // A button id or a list row id, matched exactly: one longer than a button id could never come back.
        if (value.length > INTERACTIVE_LIMITS.buttonId)
          at(`a reply_id is at most ${INTERACTIVE_LIMITS.buttonId} characters (a button id's limit)`, "value");
        const earlier = replyIds.get(value);
        if (earlier !== undefined) at(`rule ${i} can never match: rule ${earlier} has the same reply_id`, "value");
        else replyIds.set(value, i);
      }
      if (type === "keyword") {
        const key = caseSensitive ? value.trim() : value.trim().toLowerCase();
        const earlier = keywords.get(key);
        if (earlier !== undefined) at(`rule ${i} can never match: rule ${earlier} has the same keyword`, "value");
        else keywords.set(key, i);
      }
    });
  });

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DayHoursSchema = z
  .strictObject(
    {
      day: z
        .number({ error: "day must be a number from 0 (Sunday) to 6 (Saturday)" })
        .int("day must be an integer")
        .min(0, "day must be from 0 (Sunday) to 6 (Saturday)")
        .max(6, "day must be from 0 (Sunday) to 6 (Saturday)"),
      open: z.string({ error: "open must be HH:MM" }).regex(HHMM, "open must be HH:MM (00:00 to 23:59)"),
      close: z.string({ error: "close must be HH:MM" }).regex(HHMM, "close must be HH:MM (00:00 to 24:00)"),
    },
    { error: "each day must be {day, open, close}" },
  )
  .superRefine((d, ctx) => {
    if (d.open === "24:00") ctx.addIssue({ code: "custom", path: ["open"], message: "open must be before 24:00" });
    else if (HHMM.test(d.close) && minutesOf(d.open) === minutesOf(d.close)) {
      ctx.addIssue({
        code: "custom",
        path: ["close"],
        message: "close must differ from open (00:00 to 24:00 is all day)",
      });
    }
  });

export const BusinessHoursSchema = z.strictObject(
  {
    timezone: z.string({ error: "timezone must be an IANA time zone name" }).refine(isTimeZone, {
      error: (i) => `unknown time zone "${String(i.input)}" (use an IANA name such as Europe/Berlin)`,
    }),
    days: z
      .array(DayHoursSchema, { error: "days must be an array of {day, open, close}" })
      .min(1, "days must list at least one opening window")
      .max(21, "days must have at most 21 entries"),
    awayReply: ChatbotReplySchema,
  },
  { error: "businessHours must be an object with timezone, days and awayReply" },
);
export type BusinessHoursInput = z.output<typeof BusinessHoursSchema>;

type ObjectIssue = { code?: string; input?: unknown; keys?: readonly string[] };
const objectError = (missing: string) => (issue: ObjectIssue) =>
  issue.code === "unrecognized_keys"
    ? `Unknown chatbot field(s): ${(issue.keys ?? []).join(", ")}`
    : issue.input === undefined
      ? missing
      : "chatbot must be an object";

export const ChatbotCreateInput = z.strictObject(
  {
    name: Name,
    status: ChatbotStatus.default("INACTIVE"),
    rules: RulesSchema.default([]),
    fallbackReply: ChatbotReplySchema.nullish(),
    businessHours: BusinessHoursSchema.nullish(),
  },
  { error: objectError("chatbot is required: an object with name and rules") },
);
export type ChatbotCreateInput = z.output<typeof ChatbotCreateInput>;

const SenderId = z.string({ error: "senderId must be a phone number string" }).optional();

export const ChatbotCreateBody = z.object({ senderId: SenderId, chatbot: ChatbotCreateInput });

const UPDATE_FIELDS = "name, status, rules, fallbackReply, businessHours";
const NO_UPDATE_FIELD = `At least one chatbot field is required to update (${UPDATE_FIELDS})`;

export const ChatbotPatch = z
  .strictObject(
    {
      name: Name.optional(),
      status: ChatbotStatus.optional(),
      rules: RulesSchema.optional(),
      /** null removes it. */
      fallbackReply: ChatbotReplySchema.nullable().optional(),
      businessHours: BusinessHoursSchema.nullable().optional(),
    },
    { error: objectError(NO_UPDATE_FIELD) },
  )
  .refine((c) => Object.values(c).some((v) => v !== undefined), NO_UPDATE_FIELD);
export type ChatbotPatch = z.output<typeof ChatbotPatch>;

export const ChatbotUpdateBody = z.object({ senderId: SenderId, chatbot: ChatbotPatch });

export const ChatbotListQuery = PageQuery.extend({
  senderId: z.string().optional().describe("Sender phone number (all the account's senders when omitted)"),
  status: ChatbotStatus.optional(),
});
export type ChatbotListQuery = z.output<typeof ChatbotListQuery>;

export const ChatbotSenderQuery = z.object({
  senderId: z.string().optional().describe("Sender phone number (any of the account's senders when omitted)"),
});

export const ChatbotTestBody = z.object({
  senderId: SenderId,
  text: z
    .string({ error: "text must be a string" })
    .max(LIMITS.inboundLength, `text must be at most ${LIMITS.inboundLength} characters`),
  replyId: z
    .string({ error: "replyId must be a string" })
    .max(INTERACTIVE_LIMITS.buttonId, `replyId must be at most ${INTERACTIVE_LIMITS.buttonId} characters`)
    .optional()
    .describe("A tap on a button or list row: its reply id (reply_id rules match it); text is then its title"),
});

/** A path id: a value that is not an id we issue names no chatbot, and is not looked up. */
export const ChatbotUid = PublicId.describe("The chatbot's uid");

// Public shapes (OpenAPI "data" schemas).
export const ChatbotPublic = z
  .object({
    chatbotUid: z.string(),
    uid: z.string(),
    senderId: z.string().describe("The sender's phone number (E.164)"),
    phoneNumberId: z.string().nullable(),
    name: z.string(),
    status: ChatbotStatus,
    rules: z.array(RuleSchema),
    fallbackReply: ChatbotReplySchema.nullable(),
    businessHours: BusinessHoursSchema.nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Chatbot" });
export type ChatbotPublic = z.infer<typeof ChatbotPublic>;

export const ChatbotListPublic = z.object({
  senderId: z.string().nullable(),
  scope: z.enum(["sender", "user"]).describe("user: a global token without senderId lists every sender's bots"),
  chatbots: z.array(ChatbotPublic),
  items: z.array(ChatbotPublic),
  pagination: PageBlockSchema,
});

export const ChatbotTestPublic = z
  .object({
    chatbotUid: z.string(),
    matchedRule: z.number().int().nullable().describe("Index of the answering rule; null for fallback, away or none"),
    reply: ChatbotReplySchema.nullable().describe("What the bot would send; null when it would stay silent"),
    handoff: z.boolean(),
    withinBusinessHours: z.boolean(),
    timedOut: z
      .boolean()
      .describe("The bot's patterns ran out of their time budget on this text: the fallback answers"),
  })
  .meta({ id: "ChatbotTestResult" });
export type ChatbotTestPublic = z.infer<typeof ChatbotTestPublic>;

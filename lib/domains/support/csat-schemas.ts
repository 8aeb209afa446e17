// CSAT (docs/reports.md "CSAT"): the account's setting, the survey's answers and the list of
// responses. The API, the settings page and the OpenAPI document read these.
import { z } from "zod";
import { OptionalDateOnly } from "@/lib/core/date-only-query";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";

/** The question asked when the account never set one. */
export const DEFAULT_CSAT_QUESTION = "How would you rate our support?";

/** The three answers (reply buttons; a score of 1 to 3), happiest last. */
export const CSAT_ANSWERS = [
  { score: 1, title: "😞 Unhappy" },
  { score: 2, title: "😐 Neutral" },
  { score: 3, title: "😀 Happy" },
] as const;
/** The score that counts as satisfied in the CSAT score. */
export const SATISFIED = 3;

const TemplateRef = z.strictObject(
  {
    name: z
      .string({ error: "template.name must be a string" })
      .trim()
      .min(1, "template.name must not be empty")
      .max(512, "template.name must be at most 512 characters"),
    language: z
      .string({ error: "template.language must be a string" })
      .trim()
      .min(2, "template.language must be a language code such as en_US")
      .max(15, "template.language must be a language code such as en_US"),
  },
  { error: "template must be {name, language}" },
);

/** POST /settings/csat: any of the three; what is not given stays. */
export const CsatSettingBody = z
  .strictObject(
    {
      enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
      question: z
        .string({ error: "question must be a string" })
        .trim()
        .min(1, "question must not be empty")
        .max(1024, "question must be at most 1024 characters")
        .optional()
        .describe("The text above the three answer buttons (up to 1,024 characters)"),
      template: TemplateRef.nullable()
        .optional()
        .describe("The approved UTILITY template sent when the window is closed; null: none (no survey then)"),
    },
    { error: "the body must be {enabled?, question?, template?}" },
  )
  .refine((b) => b.enabled !== undefined || b.question !== undefined || b.template !== undefined, {
    message: "give enabled, question or template",
  });
export type CsatSettingBody = z.output<typeof CsatSettingBody>;

export const CsatSettingPublic = z
  .object({
    enabled: z.boolean(),
    question: z.string(),
    template: z.object({ name: z.string(), language: z.string() }).nullable(),
  })
  .meta({ id: "CsatSetting" });
export type CsatSetting = z.output<typeof CsatSettingPublic>;

/** The stored setting (Customer.csat), read leniently: an older or broken shape reads as off. */
export const StoredCsatSetting = z.object({
  enabled: z.boolean().catch(false),
  question: z.string().catch(DEFAULT_CSAT_QUESTION),
  template: z.object({ name: z.string(), language: z.string() }).nullable().catch(null),
});

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const CsatListQuery = PageQuery.extend({
  dateFrom: OptionalDateOnly.describe("Responses from this day (UTC), YYYY-MM-DD"),
  dateTo: OptionalDateOnly.describe("Responses up to and including this day (UTC), YYYY-MM-DD"),
  memberId: z
    .preprocess(blankAsAbsent, z.string().max(320).optional())
    .describe('The email of the member who closed the conversation; "api" for closes through the API'),
}).superRefine((q, ctx) => {
  if (q.dateFrom && q.dateTo && q.dateTo < q.dateFrom) {
    ctx.addIssue({ code: "custom", path: ["dateTo"], message: "dateTo is before dateFrom" });
  }
});
export type CsatListInput = z.infer<typeof CsatListQuery>;

export const CsatResponsePublic = z
  .object({
    conversationUid: z.string(),
    memberId: z
      .string()
      .nullable()
      .describe("The email of the member who closed the conversation; null: closed through the API"),
    score: z.number().int().min(1).max(3).describe("1 unhappy, 2 neutral, 3 happy"),
    comment: z.string().nullable().describe("The contact's next text message within 10 minutes of the tap"),
    at: z.string().describe("When the contact tapped"),
    contactPhoneNumber: z.string(),
    senderId: z.string().describe("The sender's phone number"),
  })
  .meta({ id: "CsatResponse" });
export type CsatResponse = z.output<typeof CsatResponsePublic>;

export const CsatListPublic = z
  .object({
    responses: z.array(CsatResponsePublic),
    items: z.array(CsatResponsePublic),
    pagination: PageBlockSchema,
  })
  .meta({ id: "CsatResponseList" });

/** The support report's csat block of a group: responses and the share of them that were happy. */
export const CsatFiguresPublic = z
  .object({
    responses: z.number().int().describe("Survey answers received in the group"),
    score: z
      .number()
      .nullable()
      .describe("Percent of those answers that were happy (score 3), one decimal; null without answers"),
  })
  .meta({ id: "CsatFigures" });
export type CsatFigures = z.output<typeof CsatFiguresPublic>;

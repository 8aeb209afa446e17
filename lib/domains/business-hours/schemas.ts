// The business hours setting's zod schema (docs/automation.md "Business hours"): the API, the
// settings page and the OpenAPI document read this one. Ranges are the chatbots' shape
// ({day, open, close}, several per day allowed), plus holidays as dates.
import { z } from "zod";
import { isTimeZone, minutesOf } from "./hours";

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const DayRangeSchema = z
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
    { error: "each range must be {day, open, close}" },
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

const WEEK_MINUTES = 7 * 1440;
const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A range's minutes of the week [start, end), a range past Saturday midnight split in two. */
function weekMinutes(r: { day: number; open: string; close: string }): [number, number][] {
  const open = minutesOf(r.open);
  const close = minutesOf(r.close);
  const start = r.day * 1440 + open;
  const end = r.day * 1440 + (close > open ? close : close + 1440);
  return end <= WEEK_MINUTES
    ? [[start, end]]
    : [
        [start, WEEK_MINUTES],
        [0, end - WEEK_MINUTES],
      ];
}

/**
 * Ranges may not overlap (a range past midnight included): an overlap would count its minutes
 * twice in every business-hours figure and SLA due time, here and in the reports' SQL twin.
 */
function refuseOverlaps(days: { day: number; open: string; close: string }[], ctx: z.RefinementCtx) {
  const valid = days.map((d) => DayRangeSchema.safeParse(d).success);
  for (let j = 0; j < days.length; j++) {
    const b = days[j];
    if (!b || !valid[j]) continue;
    for (let i = 0; i < j; i++) {
      const a = days[i];
      if (!a || !valid[i]) continue;
      const overlaps = weekMinutes(a).some(([s1, e1]) => weekMinutes(b).some(([s2, e2]) => s1 < e2 && s2 < e1));
      if (overlaps) {
        ctx.addIssue({
          code: "custom",
          path: [j],
          message: `overlaps the range ${DAY_NAMES[a.day]} ${a.open}-${a.close}: make them one range`,
        });
        break;
      }
    }
  }
}

export const BusinessHoursSchema = z
  .strictObject(
    {
      timezone: z.string({ error: "timezone must be an IANA time zone name" }).refine(isTimeZone, {
        error: (i) => `unknown time zone "${String(i.input)}" (use an IANA name such as Europe/Berlin)`,
      }),
      days: z
        .array(DayRangeSchema, { error: "days must be an array of {day, open, close}" })
        .max(50, "days must have at most 50 ranges")
        .superRefine(refuseOverlaps),
      holidays: z
        .array(z.string().regex(DATE, "each holiday must be a date YYYY-MM-DD"), {
          error: "holidays must be an array of dates YYYY-MM-DD",
        })
        .max(366, "holidays must have at most 366 dates")
        .default([]),
    },
    { error: "businessHours must be an object with timezone, days and holidays" },
  )
  .meta({
    description: "Weekly opening ranges in a time zone; a range whose close is not after its open runs past midnight.",
  });

export const AwayReplySchema = z
  .strictObject(
    {
      enabled: z.boolean({ error: "awayReply.enabled must be true or false" }),
      text: z
        .string({ error: "awayReply.text must be a string" })
        .trim()
        .min(1, "awayReply.text must not be empty")
        .max(4096, "awayReply.text must be at most 4096 characters")
        .optional(),
    },
    { error: "awayReply must be an object {enabled, text?}" },
  )
  .refine((a) => !a.enabled || a.text !== undefined, { message: "an enabled away reply needs text", path: ["text"] });

/** POST /settings/business-hours: the hours (null: none, always open) and the away reply. */
export const BusinessHoursBody = z
  .strictObject(
    {
      businessHours: BusinessHoursSchema.nullable().optional(),
      awayReply: AwayReplySchema.optional(),
    },
    { error: "the body must be {businessHours?, awayReply?}" },
  )
  .refine((b) => b.businessHours !== undefined || b.awayReply !== undefined, "give businessHours or awayReply");
export type BusinessHoursBody = z.output<typeof BusinessHoursBody>;

export const BusinessHoursPublic = z
  .object({
    businessHours: z
      .object({
        timezone: z.string(),
        days: z.array(z.object({ day: z.number().int(), open: z.string(), close: z.string() })),
        holidays: z.array(z.string()),
      })
      .nullable(),
    awayReply: z.object({ enabled: z.boolean(), text: z.string().nullable() }),
  })
  .meta({ id: "BusinessHoursSetting" });
export type BusinessHoursPublic = z.output<typeof BusinessHoursPublic>;

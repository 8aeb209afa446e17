// An optional whole day in a report's query string (YYYY-MM-DD, a real date; blank is absent),
// shared by the support, CSAT and message reports so they refuse the same input alike.
import { z } from "zod";

/**
 * Whether YYYY-MM-DD names a day of the calendar: 2026-02-30 does not, nor does the year 0, which
 * JavaScript parses and PostgreSQL's date refuses (its calendar goes from 1 BC to AD 1).
 */
export function isCalendarDay(s: string): boolean {
  const at = Date.parse(`${s}T00:00:00Z`);
  return s >= "0001-01-01" && !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === s;
}

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const OptionalDateOnly = z.preprocess(
  blankAsAbsent,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
    // A real calendar day: Date.parse rolls 2026-02-30 over to 2 March, so the day must come back
    // unchanged (PostgreSQL refuses '2026-02-30'::date, which was a 500).
    .refine(isCalendarDay, "must be a real date")
    .optional(),
);

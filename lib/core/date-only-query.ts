// An optional whole day in a report's query string (YYYY-MM-DD, a real date; blank is absent),
// shared by the support, CSAT and message reports so they refuse the same input alike.
import { z } from "zod";

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const OptionalDateOnly = z.preprocess(
  blankAsAbsent,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "must be a real date")
    .optional(),
);

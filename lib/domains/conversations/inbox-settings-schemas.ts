// The inputs of the inbox settings page (docs/inbox.md): a saved reply, and a sender's
// auto-assignment; one schema each for the page's actions and the services.
import { z } from "zod";

export const SavedReplyInput = z.object({
  shortcut: z
    .string()
    .trim()
    .toLowerCase()
    .transform((v) => v.replace(/^\//, ""))
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "1 to 32 letters, digits, - or _ (typed after / in the reply box)"),
    ),
  text: z.string().trim().min(1, "Write the reply").max(4096, "At most 4,096 characters"),
});
export type SavedReplyValue = z.output<typeof SavedReplyInput>;

export const AutoAssignInput = z.object({
  sender: z.string().trim().min(1, "Choose a sender"),
  autoAssign: z.preprocess((v) => v === true || v === "true" || v === "on", z.boolean()),
  cap: z.coerce
    .number({ error: "A whole number" })
    .int("A whole number")
    .min(1, "At least 1")
    .max(1000, "At most 1,000"),
});
export type AutoAssignValue = z.output<typeof AutoAssignInput>;

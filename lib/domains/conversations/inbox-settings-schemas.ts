// The inputs of the inbox settings page (docs/inbox.md): a saved reply, and a sender's
// auto-assignment; one schema each for the page's actions and the services.
import { z } from "zod";
import { INTERACTIVE_LIMITS, InteractiveButtons } from "./interactive-buttons";

const SavedReplyFields = z.object({
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
  // Reply buttons: the reply goes out as a buttons message whose body is the text, under the
  // limits of /chat's (docs/inbox.md "Saved replies"). None or an empty list: a text reply.
  buttons: z
    .array(z.object({ id: z.string().trim(), title: z.string().trim() }))
    .max(INTERACTIVE_LIMITS.buttons, `At most ${INTERACTIVE_LIMITS.buttons} buttons`)
    .optional(),
});

/** With buttons, the text is a buttons message's body, and the buttons are /chat's (InteractiveButtons). */
function checkButtons(v: z.output<typeof SavedReplyFields>, ctx: z.RefinementCtx): void {
  if (!v.buttons?.length) return;
  if (v.text.length > INTERACTIVE_LIMITS.body) {
    const message = `At most ${INTERACTIVE_LIMITS.body.toLocaleString("en-US")} characters with buttons`;
    ctx.addIssue({ code: "custom", path: ["text"], message });
  }
  const parsed = InteractiveButtons.safeParse(v.buttons);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const [index, field] = issue.path;
    const which = typeof index === "number" ? `Button ${index + 1}: ` : "";
    const message =
      field === "title"
        ? `${which}a title is 1 to ${INTERACTIVE_LIMITS.buttonTitle} characters`
        : field === "id"
          ? issue.message === "must be unique"
            ? `${which}each button needs its own reply id`
            : `${which}a reply id is 1 to ${INTERACTIVE_LIMITS.buttonId} characters`
          : issue.message;
    const at = typeof index === "number" ? [index, ...(typeof field === "string" ? [field] : [])] : [];
    ctx.addIssue({ code: "custom", path: ["buttons", ...at], message });
  }
}

export const SavedReplyInput = SavedReplyFields.superRefine(checkButtons);
export type SavedReplyValue = z.output<typeof SavedReplyInput>;

/** A change of a saved reply: the same fields and checks, and the reply's id. */
export const SavedReplyUpdateInput = SavedReplyFields.extend({
  id: z.string({ error: "Expected an id" }).min(1, "Expected an id"),
}).superRefine(checkButtons);

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

/** Read receipts (and the typing indicator) at the provider: on or off for the account. */
export const ReadReceiptsInput = z.object({
  enabled: z.preprocess((v) => v === true || v === "true" || v === "on", z.boolean()),
});

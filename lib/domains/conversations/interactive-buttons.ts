// The provider's limits of an interactive message and its reply buttons' schema
// (docs/messaging.md "Buttons, lists and links"), below both the send path
// (lib/domains/messaging/interactive.ts, which checks a whole interactive object with them) and
// the saved replies of this domain, which hold buttons under the same rules.
import { z } from "zod";

/** The provider's limits (characters, counts) of an interactive message. */
export const INTERACTIVE_LIMITS = {
  body: 1024,
  headerText: 60,
  footer: 60,
  buttons: 3,
  buttonId: 256,
  buttonTitle: 20,
  listButton: 20,
  sections: 10,
  sectionTitle: 24,
  rows: 10,
  rowId: 200,
  rowTitle: 24,
  rowDescription: 72,
  ctaDisplayText: 20,
  ctaUrl: 2000,
} as const;
const L = INTERACTIVE_LIMITS;

export const InteractiveButton = z
  .object({
    id: z.string().min(1).max(L.buttonId).describe("Comes back in the tap's reply.id"),
    title: z.string().min(1).max(L.buttonTitle),
  })
  .meta({ id: "InteractiveButton", examples: [{ id: "track", title: "Track my order" }] });
export type InteractiveButtonValue = z.infer<typeof InteractiveButton>;

/** 1-3 reply buttons, their ids unique. */
export const InteractiveButtons = z
  .array(InteractiveButton)
  .min(1)
  .max(L.buttons)
  .superRefine((buttons, ctx) => {
    const seen = new Set<string>();
    buttons.forEach((b, i) => {
      if (seen.has(b.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: "must be unique" });
      seen.add(b.id);
    });
  });

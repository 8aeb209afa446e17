// One zod module for labels (docs/automation.md "Labels"): the create and update bodies, the
// add/remove body of a conversation's or a contact's labels, and the public shapes. The API,
// the dashboard's labels page and the OpenAPI document import these.
import { z } from "zod";

/** The ten named colours a label may have (the inbox draws each in both themes). */
export const LABEL_COLORS = [
  "gray",
  "red",
  "orange",
  "yellow",
  "green",
  "teal",
  "blue",
  "indigo",
  "purple",
  "pink",
] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];

export const LABEL_NAME_MAX = 40;
/** How many names one add/remove request may carry. */
export const LABEL_CHANGE_MAX = 50;

export const LabelName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LABEL_NAME_MAX, `must be at most ${LABEL_NAME_MAX} characters`)
  .describe("The label's name (1-40 characters, unique in the account whatever the case)");

const Color = z.enum(LABEL_COLORS).describe(`One of ${LABEL_COLORS.join(", ")}`);
const Description = z.string().trim().max(200).describe("What the label means (up to 200 characters)");

export const LabelInput = z.object({
  name: LabelName,
  color: Color.default("gray"),
  description: Description.default(""),
});
export type LabelValue = z.infer<typeof LabelInput>;

export const LabelPatch = z
  .object({ name: LabelName.optional(), color: Color.optional(), description: Description.optional() })
  .refine((l) => l.name !== undefined || l.color !== undefined || l.description !== undefined, {
    message: "at least one of name, color, description is required",
  });
export type LabelPatchValue = z.infer<typeof LabelPatch>;

const Names = z.array(LabelName).max(LABEL_CHANGE_MAX).default([]);

/** A change of the labels a conversation or a contact carries: names, matched whatever the case. */
export const LabelChange = z
  .object({
    add: Names.describe("Label names to put on (unknown names are LABEL_NOT_FOUND)"),
    remove: Names.describe("Label names to take off"),
  })
  .superRefine((c, ctx) => {
    if (c.add.length === 0 && c.remove.length === 0) {
      ctx.addIssue({ code: "custom", message: "add or remove at least one label", path: ["add"] });
    }
    const added = new Set(c.add.map((n) => n.toLowerCase()));
    for (const [i, name] of c.remove.entries()) {
      if (added.has(name.toLowerCase())) {
        ctx.addIssue({ code: "custom", message: `${name} is both added and removed`, path: ["remove", i] });
      }
    }
  });
export type LabelChangeValue = z.infer<typeof LabelChange>;

// One zod module for labels (docs/automation.md "Labels"): the create and update bodies, the
// add/remove body of a conversation's or a contact's labels, and the public shapes. The API,
// the dashboard's labels page and the OpenAPI document import these.
import { z } from "zod";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { E164, normalizePhone } from "@/lib/domains/senders/phone";

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

const ChangeFields = {
  add: Names.describe("Label names to put on (unknown names are LABEL_NOT_FOUND)"),
  remove: Names.describe("Label names to take off"),
};

function checkChange(c: { add: string[]; remove: string[] }, ctx: z.RefinementCtx): void {
  if (c.add.length === 0 && c.remove.length === 0) {
    ctx.addIssue({ code: "custom", message: "add or remove at least one label", path: ["add"] });
  }
  const added = new Set(c.add.map((n) => n.toLowerCase()));
  for (const [i, name] of c.remove.entries()) {
    if (added.has(name.toLowerCase())) {
      ctx.addIssue({ code: "custom", message: `${name} is both added and removed`, path: ["remove", i] });
    }
  }
}

/** A change of the labels a conversation or a contact carries: names, matched whatever the case. */
export const LabelChange = z.object(ChangeFields).superRefine(checkChange);
export type LabelChangeValue = z.infer<typeof LabelChange>;

// The API's shapes (lib/api/routes/labels.ts).

/** Label uids are lbl_<hex>; the router answers LABEL_NOT_FOUND for anything else. */
export const LabelUid = z.string().regex(/^lbl_[0-9a-f]{1,64}$/, "is not a label uid");

export const LabelCreateBody = z.object({ label: LabelInput });
export const LabelUpdateBody = z.object({ label: LabelPatch });

export const LabelPublic = z
  .object({
    labelUid: z.string(),
    name: z.string(),
    color: z.enum(LABEL_COLORS),
    description: z.string(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Label" });
export type PublicLabel = z.output<typeof LabelPublic>;

export const LabelListPublic = z.object({ labels: z.array(LabelPublic), items: z.array(LabelPublic) });
export const LabelDeletedPublic = z.object({ labelUid: z.string(), deleted: z.literal(true) });

/** POST /conversations/{uid}/labels: the change, and the sender as the conversation routes take it. */
export const ConversationLabelsBody = z
  .object({
    senderId: z
      .string()
      .optional()
      .describe("Sender phone number; omitted: the token's sender, or (global token) every sender of the account"),
    ...ChangeFields,
  })
  .superRefine(checkChange);

const Changed = {
  labels: z.array(z.string()).describe("Every label carried now, sorted by name"),
  added: z.array(z.string()).describe("What this change put on (names already there are not listed)"),
  removed: z.array(z.string()).describe("What this change took off (names not there are not listed)"),
};
export const ConversationLabelsPublic = z.object({ conversationUid: z.string(), ...Changed });
export const ContactLabelsPublic = z.object({ phoneNumber: z.string(), ...Changed });
export const ContactLabelsReadPublic = z.object({ phoneNumber: z.string(), labels: Changed.labels });

/** A contact's phone number in a path (+ percent-encoded or not): stored as E.164. */
export const ContactPhoneParam = z
  .string()
  .transform((v) => normalizePhone(v))
  .pipe(z.string().regex(E164, "must be a phone number with + and the country code"));

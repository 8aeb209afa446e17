"use server";
// The labels page (docs/automation.md "Labels"): create, rename or recolour, delete. Owners
// and admins (inbox settings); the labels service checks the permission too.
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { LabelInput } from "@/lib/domains/labels/schemas";
import { createLabel, deleteLabel, updateLabel } from "@/lib/domains/labels/service";

export const createLabelAction = defineAction({
  permission: "inbox.settings",
  schema: LabelInput,
  run: async ({ principal, input }) => ({ name: (await createLabel(principal, input)).name }),
  revalidate: "/inbox/labels",
});

export const updateLabelAction = defineAction({
  permission: "inbox.settings",
  schema: LabelInput.extend({ id: RecordId }),
  run: async ({ principal, input: { id, ...label } }) => {
    await updateLabel(principal, id, label);
  },
  revalidate: "/inbox/labels",
});

export const deleteLabelAction = defineAction({
  permission: "inbox.settings",
  schema: z.object({ id: RecordId }),
  run: async ({ principal, input }) => {
    await deleteLabel(principal, input.id);
  },
  revalidate: "/inbox/labels",
});

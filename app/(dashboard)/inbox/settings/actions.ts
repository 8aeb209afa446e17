"use server";
// The inbox settings page (docs/inbox.md): saved replies (add, change, delete) and each
// sender's auto-assignment. Owners and admins; the services check the table too.
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { setAutoAssign } from "@/lib/domains/conversations/auto-assign";
import {
  AutoAssignInput,
  ReadReceiptsInput,
  SavedReplyInput,
  SavedReplyUpdateInput,
} from "@/lib/domains/conversations/inbox-settings-schemas";
import { setReadReceipts } from "@/lib/domains/conversations/read-receipts";
import { createSavedReply, deleteSavedReply, updateSavedReply } from "@/lib/domains/conversations/saved-replies";

export const createSavedReplyAction = defineAction({
  permission: "inbox.settings",
  schema: SavedReplyInput,
  run: async ({ principal, input }) => ({ shortcut: (await createSavedReply(principal, input)).shortcut }),
  revalidate: "/inbox/settings",
});

export const updateSavedReplyAction = defineAction({
  permission: "inbox.settings",
  schema: SavedReplyUpdateInput,
  run: async ({ principal, input: { id, ...reply } }) => {
    await updateSavedReply(principal, id, reply);
  },
  revalidate: "/inbox/settings",
});

export const deleteSavedReplyAction = defineAction({
  permission: "inbox.settings",
  schema: z.object({ id: RecordId }),
  run: async ({ principal, input }) => {
    await deleteSavedReply(principal, input.id);
  },
  revalidate: "/inbox/settings",
});

export const setAutoAssignAction = defineAction({
  permission: "inbox.settings",
  schema: AutoAssignInput,
  run: async ({ principal, input }) => {
    await setAutoAssign(principal, input);
  },
  revalidate: "/inbox/settings",
});

export const setReadReceiptsAction = defineAction({
  permission: "inbox.settings",
  schema: ReadReceiptsInput,
  run: async ({ principal, input }) => {
    await setReadReceipts(principal, input.enabled);
  },
  revalidate: "/inbox/settings",
});

"use server";
// The new-broadcast page's changes (docs/broadcasts.md "How to send one"): create the DRAFT,
// update it when a start was refused and the form changed, then start or schedule it. Each is
// the service the public API's route calls, with the API's own body schema.
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { BroadcastCreateBody, BroadcastPatch, BroadcastStartBody } from "@/lib/domains/broadcasts/schemas";
import { createBroadcast, startBroadcast, updateBroadcast } from "@/lib/domains/broadcasts/service";
import { resolveSender } from "@/lib/domains/senders/service";
import { FIELD_LABELS } from "./field-labels";

export const createBroadcastAction = defineAction({
  permission: "broadcasts",
  schema: BroadcastCreateBody,
  run: async ({ principal, input }) => {
    const sender = await resolveSender(principal, input.senderId, { useDefault: false, requireSetup: false });
    if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
    return { uid: (await createBroadcast(principal, sender, input.broadcast)).id };
  },
  revalidate: "/broadcasts",
  labels: FIELD_LABELS,
});

/** The draft made by a start that was refused, changed since in the form (still DRAFT). */
export const updateBroadcastAction = defineAction({
  permission: "broadcasts",
  schema: z.object({ uid: RecordId, broadcast: BroadcastPatch }),
  run: async ({ principal, input }) => ({
    uid: (await updateBroadcast(principal, undefined, input.uid, input.broadcast)).id,
  }),
  revalidate: "/broadcasts",
  labels: FIELD_LABELS,
});

export const startBroadcastAction = defineAction({
  permission: "broadcasts",
  schema: BroadcastStartBody.extend({ uid: RecordId }),
  run: async ({ principal, input }) => {
    const row = await startBroadcast(principal, undefined, input.uid, input.scheduledAt);
    return { uid: row.id, status: row.status };
  },
  revalidate: "/broadcasts",
  labels: FIELD_LABELS,
});

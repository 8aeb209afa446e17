"use server";
// Pause, resume, cancel and retry failed from a broadcast's page: the API's own state changes
// (docs/broadcasts.md "States"), each idempotent; a change the state does not allow is
// BROADCAST_STATE_CONFLICT, shown on the page.
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { retryFailedRecipients } from "@/lib/domains/broadcasts/retry-failed";
import { cancelBroadcast, pauseBroadcast, resumeBroadcast } from "@/lib/domains/broadcasts/service";

const ByUid = z.object({ uid: RecordId });
const page = ({ input }: { input: { uid: string } }) => `/broadcasts/${input.uid}`;

export const pauseBroadcastAction = defineAction({
  permission: "broadcasts",
  schema: ByUid,
  run: async ({ principal, input }) => ({ status: (await pauseBroadcast(principal, undefined, input.uid)).status }),
  revalidate: page,
});

export const resumeBroadcastAction = defineAction({
  permission: "broadcasts",
  schema: ByUid,
  run: async ({ principal, input }) => ({ status: (await resumeBroadcast(principal, undefined, input.uid)).status }),
  revalidate: page,
});

export const cancelBroadcastAction = defineAction({
  permission: "broadcasts",
  schema: ByUid,
  run: async ({ principal, input }) => ({ status: (await cancelBroadcast(principal, undefined, input.uid)).status }),
  revalidate: page,
});

/** Failed recipients with a retryable code queued again (docs/broadcasts.md "Retrying failed recipients"). */
export const retryFailedAction = defineAction({
  permission: "broadcasts",
  schema: ByUid,
  run: async ({ principal, input }) => {
    const r = await retryFailedRecipients(principal, undefined, input.uid);
    return {
      status: r.broadcast.status,
      requeued: r.requeued,
      waiting: r.waiting,
      retryableAt: r.retryableAt?.toISOString() ?? null,
    };
  },
  revalidate: page,
});

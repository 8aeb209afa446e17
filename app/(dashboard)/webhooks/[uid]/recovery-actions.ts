"use server";
// Starts a recovery of failed deliveries from the webhook page (docs/webhook-recovery.md),
// with the same schema and service as POST /webhooks/{uid}/recover.
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { actionSender } from "@/lib/domains/senders/dashboard-scope";
import { startRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { RecoverBody } from "@/lib/domains/webhooks/recovery-schemas";

// RecoverBody checks its window as a whole (superRefine), so the id sits beside it.
export const startRecoveryAction = defineAction({
  permission: "webhooks",
  schema: z.object({ uid: RecordId, body: RecoverBody }),
  run: async ({ principal, input }) => {
    const sender = await actionSender(principal, input.body.senderId);
    return toPublicRecovery(await startRecovery(principal, sender, input.uid, input.body));
  },
});

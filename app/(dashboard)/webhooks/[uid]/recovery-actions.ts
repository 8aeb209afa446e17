"use server";
// Starts a recovery of failed deliveries from the webhook page (docs/webhook-recovery.md),
// with the same schema and service as POST /webhooks/{uid}/recover.
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { actionSender } from "@/lib/domains/senders/dashboard-scope";
import { startRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { RecoverBody, type RecoveryPublic } from "@/lib/domains/webhooks/recovery-schemas";

export async function startRecoveryAction(
  senderPhone: string,
  uid: string,
  raw: unknown,
): Promise<ActionResult<RecoveryPublic>> {
  const p = await requirePermission("webhooks");
  return runAction(async () => {
    const job = await startRecovery(p, await actionSender(p, senderPhone), uid, RecoverBody.parse(raw));
    return toPublicRecovery(job);
  }, raw);
}

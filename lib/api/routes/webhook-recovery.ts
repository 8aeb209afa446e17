// Recovery of failed deliveries (docs/webhook-recovery.md): POST queues a job that
// re-queues every FAILED delivery of the destination created in [since, until]; GET reads
// its progress. Sender-scoped like every webhook route; another account's webhook is
// WEBHOOK_NOT_FOUND, an unknown job WEBHOOK_RECOVERY_NOT_FOUND.
import * as examples from "@/lib/domains/webhooks/examples";
import { getRecovery, startRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { RecoverBody, RecoveryPublic, RecoveryUid } from "@/lib/domains/webhooks/recovery-schemas";
import { SenderQuery, WebhookUid } from "@/lib/domains/webhooks/schemas";
import { type AnyRoute, ok, route } from "../route-definition";

const scoped = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "webhooks",
  tag: "Webhooks",
  sender: "resolve",
  params: { webhookUid: WebhookUid, recoveryUid: RecoveryUid },
  paramNotFound: { webhookUid: "WEBHOOK_NOT_FOUND", recoveryUid: "WEBHOOK_RECOVERY_NOT_FOUND" },
} as const;

export const webhookRecoveryRoutes: AnyRoute[] = [
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks/:webhookUid/recover",
    permission: "webhooks",
    summary: "Recover failed deliveries",
    description:
      "Re-queues every FAILED delivery of this destination created in [since, until], as a background job; read its progress with GET .../recoveries/{recoveryUid}.",
    // A replay answers the same job (docs/idempotency.md).
    idempotent: "webhook.recover",
    body: RecoverBody,
    response: RecoveryPublic,
    example: examples.postWebhooksByWebhookUidRecover,
    handler: async ({ principal, sender, params, body }) => {
      const job = await startRecovery(principal, sender, params.webhookUid, body);
      return ok("Webhook recovery queued", toPublicRecovery(job));
    },
  }),
  route({
    ...scoped,
    method: "GET",
    path: "/webhooks/:webhookUid/recoveries/:recoveryUid",
    permission: "webhooks",
    summary: "Read a recovery job",
    description: "The job's progress: status, total, requeued and timestamps.",
    query: SenderQuery,
    response: RecoveryPublic,
    example: examples.getWebhooksByWebhookUidRecoveriesByRecoveryUid,
    handler: async ({ principal, sender, params }) => {
      const job = await getRecovery(principal, sender, params.webhookUid, params.recoveryUid);
      return ok("Webhook recovery retrieved", toPublicRecovery(job));
    },
  }),
];

// Recovery of failed deliveries (docs/webhook-recovery.md): POST queues a job that
// re-queues every FAILED delivery of the destination created in [since, until]; GET reads
// its progress. Sender-scoped like every webhook route; another account's webhook is
// WEBHOOK_NOT_FOUND, an unknown job WEBHOOK_RECOVERY_NOT_FOUND.
import { ApiError } from "@/lib/core/errors";
import type { Sender } from "@/lib/domains/senders/service";
import { getRecovery, startRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { RecoverBody, RecoveryPublic } from "@/lib/domains/webhooks/recovery-schemas";
import { isWellFormedId, SenderQuery } from "@/lib/domains/webhooks/schemas";
import { type AnyRoute, ok, route } from "../route-definition";
import * as examples from "./webhook-recovery-examples";

const scoped = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "webhooks",
  tag: "Webhooks",
  sender: "resolve",
  paramNotFound: { webhookUid: "WEBHOOK_NOT_FOUND" },
} as const;

function need(sender: Sender | undefined): Sender {
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "No sender could be resolved for this request");
  return sender;
}
// A malformed id (e.g. with a NUL byte, which PostgreSQL text refuses) cannot exist.
function idOf(params: Record<string, string>, name: "webhookUid" | "recoveryUid"): string {
  const id = params[name] ?? "";
  if (isWellFormedId(id)) return id;
  if (name === "webhookUid") throw new ApiError("WEBHOOK_NOT_FOUND", "Webhook not found for this account and sender");
  throw new ApiError("WEBHOOK_RECOVERY_NOT_FOUND", "Recovery not found for this webhook");
}

export const webhookRecoveryRoutes: AnyRoute[] = [
  route({
    ...scoped,
    method: "POST",
    path: "/webhooks/:webhookUid/recover",
    summary:
      "Re-queue every FAILED delivery of this destination created in [since, until] (a background job; read its progress with GET .../recoveries/{recoveryUid})",
    // A replay answers the same job (docs/idempotency.md).
    idempotent: "webhook.recover",
    body: RecoverBody,
    response: RecoveryPublic,
    example: examples.postWebhooksByWebhookUidRecover,
    handler: async ({ principal, sender, params, body }) => {
      const job = await startRecovery(principal, need(sender), idOf(params, "webhookUid"), body);
      return ok("Webhook recovery queued", toPublicRecovery(job));
    },
  }),
  route({
    ...scoped,
    method: "GET",
    path: "/webhooks/:webhookUid/recoveries/:recoveryUid",
    summary: "Read a recovery job's progress (status, total, requeued, timestamps)",
    paramNotFound: { webhookUid: "WEBHOOK_NOT_FOUND", recoveryUid: "WEBHOOK_RECOVERY_NOT_FOUND" },
    query: SenderQuery,
    response: RecoveryPublic,
    example: examples.getWebhooksByWebhookUidRecoveriesByRecoveryUid,
    handler: async ({ principal, sender, params }) => {
      const job = await getRecovery(principal, need(sender), idOf(params, "webhookUid"), idOf(params, "recoveryUid"));
      return ok("Webhook recovery retrieved", toPublicRecovery(job));
    },
  }),
];

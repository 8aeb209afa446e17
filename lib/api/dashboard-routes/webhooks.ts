// The webhook page's recovery panel polls its job's progress (docs/webhook-recovery.md), a
// dashboard-only route (session: "only", lib/api/route-definition.ts) at the public route's path:
// the public GET is held to the plans with the webhooks feature, and the dashboard never checks
// a plan's features (a starter account's recovery, started from the page, is read here too).

import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { PageSenderQuery } from "@/lib/domains/senders/schemas";
import { getRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { RecoveryUid } from "@/lib/domains/webhooks/recovery-schemas";
import { WebhookUid } from "@/lib/domains/webhooks/schemas";
import { webhookNotFound } from "@/lib/domains/webhooks/service";
import { type AnyRoute, ok, route } from "../route-definition";
import { dashboardOnly } from "./common";

export const webhooksDashboardRoutes: AnyRoute[] = [
  route({
    ...dashboardOnly,
    tag: "Webhooks",
    method: "GET",
    path: "/webhooks/:webhookUid/recoveries/:recoveryUid",
    permission: "webhooks",
    params: { webhookUid: WebhookUid, recoveryUid: RecoveryUid },
    paramNotFound: { webhookUid: "WEBHOOK_NOT_FOUND", recoveryUid: "WEBHOOK_RECOVERY_NOT_FOUND" },
    summary: "A recovery's progress",
    description: "The job's status and counts, for the sender the page names (`sender`, else the default one).",
    query: PageSenderQuery,
    handler: async ({ principal, params, query }) => {
      const sender = await pageSender(principal, query.sender);
      if (!sender) throw webhookNotFound(params.webhookUid);
      const job = await getRecovery(principal, sender, params.webhookUid, params.recoveryUid);
      return ok("Webhook recovery retrieved", { recovery: toPublicRecovery(job) });
    },
  }),
];

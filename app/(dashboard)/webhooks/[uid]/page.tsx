import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { CardSection } from "@/components/ui/card-section";
import { card } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { EVENT_GROUPS } from "@/lib/domains/webhooks/catalog";
import { latestRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { toPublicWebhook } from "@/lib/domains/webhooks/serializers";
import { getWebhook } from "@/lib/domains/webhooks/service";
import { DisabledBanner } from "../disabled-banner";
import { disabledOf } from "../disabled-webhooks";
import { DeliveryLog } from "./delivery-log";
import { EndpointHealth } from "./endpoint-health";
import { RecoveryPanel } from "./recovery-panel";
import { SecretRotate } from "./secret-rotate";
import { WebhookEdit } from "./webhook-edit";

export const metadata: Metadata = { title: "Webhook · Switchboard" };

type Props = { params: Promise<{ uid: string }>; searchParams: Promise<RawSearchParams> };

export default async function WebhookPage({ params, searchParams }: Props) {
  const p = await requirePermission("webhooks");
  const { uid } = await params;
  const sp = flatParams(await searchParams);
  const sender = await pageSender(p, sp.sender);
  if (!sender) return <EmptyState title="No sender numbers yet" />;
  const webhook = toPublicWebhook(await foundOr404(getWebhook(p, sender, uid)));
  const recovery = await latestRecovery(p, sender, uid);
  const back = sp.sender ? `/webhooks?sender=${encodeURIComponent(sp.sender)}` : "/webhooks";
  return (
    <div className="space-y-6">
      <SubpageHeader backHref={back} backLabel="All webhooks" title={webhook.name}>
        <SenderInForce sender={senderInfo(sender)} chosen={Boolean(sp.sender)} />
        <p className="break-all font-mono text-sm text-slate-600 dark:text-slate-400">{webhook.endpointUrl}</p>
        <p className="text-sm" data-testid="webhook-status">
          Status: {webhook.status}
        </p>
      </SubpageHeader>
      <DisabledBanner senderPhone={sender.phoneNumber} webhooks={disabledOf([webhook])} detailQuery={null} />
      <EndpointHealth health={webhook.health} />
      <CardSection id="edit-webhook" title="Settings">
        <WebhookEdit senderPhone={sender.phoneNumber} webhook={webhook} groups={[...EVENT_GROUPS]} />
      </CardSection>
      <section className={card} aria-labelledby="signing-secret">
        <h2 id="signing-secret" className="mb-1 text-lg font-semibold">
          Signing secret
        </h2>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400" data-testid="secret-rotation-state">
          {webhook.previousSecretExpiresAt
            ? `Rotated ${formatDateTime(webhook.secretRotatedAt ?? "")}: deliveries carry both signatures until ${formatDateTime(webhook.previousSecretExpiresAt)}.`
            : webhook.secretRotatedAt
              ? `Last rotated ${formatDateTime(webhook.secretRotatedAt)}.`
              : "Never rotated."}
        </p>
        <SecretRotate senderPhone={sender.phoneNumber} uid={uid} />
      </section>
      <CardSection id="recover-deliveries" title="Recover failed deliveries">
        <RecoveryPanel
          senderPhone={sender.phoneNumber}
          uid={uid}
          latest={recovery ? toPublicRecovery(recovery) : null}
          disabled={webhook.status !== "ACTIVE"}
        />
      </CardSection>
      <DeliveryLog p={p} sender={sender} uid={uid} params={sp} active={webhook.status === "ACTIVE"} />
    </div>
  );
}

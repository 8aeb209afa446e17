"use client";
import { ActionButton } from "@/components/dashboard/action-button";
import { link } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
// The banner over the webhook pages when the service disabled a destination (5 days of
// failed deliveries, or 410 Gone): the reason and a re-enable action, which sets the
// destination ACTIVE and so resets its circuit breaker (docs/event-pipeline.md "Endpoint health").
import { IntentLink } from "@/components/ui/intent-link";
import { updateWebhookAction } from "./actions";
import type { DisabledWebhook } from "./disabled-webhooks";

export function DisabledBanner({
  senderPhone,
  webhooks,
  detailQuery = "",
}: {
  senderPhone: string;
  webhooks: DisabledWebhook[];
  /** When set, each name links to its detail page with this query string. */
  detailQuery?: string | null;
}) {
  if (webhooks.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="webhook-disabled-banner"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">
        {webhooks.length === 1 ? "A webhook destination was disabled" : "Webhook destinations were disabled"}
      </p>
      <ul className="space-y-2">
        {webhooks.map((w) => (
          <li key={w.uid} className="flex flex-wrap items-center gap-3">
            <span>
              {detailQuery === null ? (
                <strong>{w.name}</strong>
              ) : (
                <IntentLink className={link} href={`/webhooks/${w.uid}${detailQuery}`}>
                  {w.name}
                </IntentLink>
              )}{" "}
              on {formatDateTime(w.disabledAt)}: {w.disabledReason ?? "disabled by the service"}
            </span>
            <ActionButton
              action={() => updateWebhookAction({ senderId: senderPhone, uid: w.uid, webhook: { status: "ACTIVE" } })}
              success={`${w.name} is active again`}
              label="Re-enable"
              pendingLabel="Re-enabling…"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

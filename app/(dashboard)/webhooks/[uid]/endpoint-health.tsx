// Endpoint health on the destination's page: its circuit breaker's state and the
// thresholds it runs by (docs/event-pipeline.md "Endpoint health").

import { CardSection } from "@/components/ui/card-section";
import { muted } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { countOf } from "@/lib/core/count";
import type { WebhookPublic } from "@/lib/domains/webhooks/schemas";

const STATE_TEXT: Record<WebhookPublic["health"]["breakerState"], string> = {
  CLOSED: "Closed: delivering normally",
  OPEN: "Open: deliveries paused, waiting to probe the endpoint",
  HALF_OPEN: "Half-open: one probe delivery is in flight",
};

const duration = (seconds: number) =>
  seconds % 86_400 === 0
    ? countOf(seconds / 86_400, "day")
    : seconds % 3600 === 0
      ? `${seconds / 3600} h`
      : seconds % 60 === 0
        ? `${seconds / 60} min`
        : `${seconds} s`;

export function EndpointHealth({ health }: { health: WebhookPublic["health"] }) {
  const t = health.thresholds;
  const rows: [string, string][] = [
    ["Consecutive failures", String(health.consecutiveFailures)],
    ["Failing since", health.failingSince ? formatDateTime(health.failingSince) : "—"],
    ["Breaker opened", health.breakerOpenedAt ? formatDateTime(health.breakerOpenedAt) : "—"],
    ["Next probe", health.nextProbeAt ? formatDateTime(health.nextProbeAt) : "—"],
    ["Ramping up until", health.recoveringUntil ? formatDateTime(health.recoveringUntil) : "—"],
  ];
  return (
    <CardSection id="endpoint-health" title="Endpoint health">
      <p className="mb-3 text-sm" data-testid="breaker-state">
        Circuit breaker: <strong>{health.breakerState}</strong> — {STATE_TEXT[health.breakerState]}
      </p>
      <dl className="mb-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-3">
            <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p className={muted} data-testid="breaker-thresholds">
        The breaker opens after {t.failuresToOpen} failed attempts in a row; while open, deliveries wait (no attempts
        used) and one probe goes through after {duration(t.probeBackoffMinSeconds)}, the wait doubling after each failed
        probe up to {duration(t.probeBackoffMaxSeconds)}. A successful probe closes it and deliveries ramp up over{" "}
        {duration(t.recoveryRampSeconds)}. After {duration(t.disableAfterSeconds)} of nothing but failures the
        destination is disabled and your other destinations receive webhook.endpoint.disabled.
      </p>
    </CardSection>
  );
}

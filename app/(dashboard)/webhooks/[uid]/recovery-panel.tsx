"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState, useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { buttonSecondary, muted } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { formatDateTime } from "@/components/ui/format";
// "Recover failed deliveries" (docs/webhook-recovery.md): a since/until form that queues a
// recovery job, and a progress bar that polls the job (TanStack Query) until it is done.
import { formatCount } from "@/lib/core/count";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import type { RecoveryPublic } from "@/lib/domains/webhooks/recovery-schemas";
import { startRecoveryAction } from "./recovery-actions";

const DONE = new Set(["COMPLETED", "FAILED"]);

/** A Date as the value of a datetime-local input (the browser's local time). */
function localInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
/** A datetime-local value as ISO 8601 (UTC); text the browser cannot read goes as is (the server names it). */
function toIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

type Props = { senderPhone: string; uid: string; latest: RecoveryPublic | null; disabled: boolean };

export function RecoveryPanel({ senderPhone, uid, latest, disabled }: Props) {
  const id = useId();
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3600_000)));
  const [until, setUntil] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [job, setJob] = useState<RecoveryPublic | null>(latest);

  const query = useQuery({
    queryKey: queryKeys.webhookRecovery(uid, job?.recoveryUid),
    enabled: job !== null,
    initialData: job ?? undefined,
    queryFn: async (): Promise<RecoveryPublic> =>
      (await dashboardApi.webhookRecovery(uid, job?.recoveryUid ?? "", senderPhone)).recovery,
    refetchInterval: (q) => (q.state.data && DONE.has(q.state.data.status) ? false : 1_000),
    staleTime: 0,
  });
  const current = query.data ?? job;
  const finished = current !== null && DONE.has(current.status);
  // The delivery log below shows the re-queued deliveries once the job is done.
  useEffect(() => {
    if (finished && current?.recoveryUid !== latest?.recoveryUid) router.refresh();
  }, [finished, current?.recoveryUid, latest?.recoveryUid, router]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    start(async () => {
      const result = await startRecoveryAction({
        uid,
        body: { senderId: senderPhone, since: toIso(since), ...(until ? { until: toIso(until) } : {}) },
      });
      if (result.ok) {
        setFields({});
        setJob(result.data);
        toast.success("Recovery queued");
      } else {
        setFields(result.fields ?? {});
        toast.error(result.message);
      }
    });
  };

  const total = current?.total ?? null;
  const percent =
    current === null
      ? 0
      : current.status === "COMPLETED"
        ? 100
        : total
          ? Math.min(100, Math.round((current.requeued / total) * 100))
          : 0;
  return (
    <div className="space-y-4">
      <p className={muted}>
        Sends again every delivery of this webhook that FAILED in the window (by when it was created; at most 30 days
        back). Each failed delivery is queued once, with its original webhook-id.
      </p>
      <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <TextField
          id={`${id}-since`}
          label="Since"
          type="datetime-local"
          value={since}
          onChange={(e) => setSince(e.target.value)}
          message={fields.since}
          required
        />
        <TextField
          id={`${id}-until`}
          label="Until (empty: now)"
          type="datetime-local"
          value={until}
          onChange={(e) => setUntil(e.target.value)}
          message={fields.until}
        />
        <button type="submit" className={buttonSecondary} disabled={pending || disabled}>
          {pending ? "Queuing…" : "Recover failed deliveries"}
        </button>
      </form>
      {current && (
        <div className="space-y-1" data-testid="recovery-progress">
          <div className="flex flex-wrap justify-between gap-2 text-sm">
            <span data-testid="recovery-status">{current.status}</span>
            <span data-testid="recovery-counts">
              {total === null
                ? "Counting failed deliveries…"
                : `${formatCount(current.requeued)} of ${formatCount(total)} re-queued`}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label="Recovery progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
          >
            <div
              className={`h-full ${current.status === "FAILED" ? "bg-red-600" : "bg-indigo-600"} transition-all`}
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className={muted}>
            Window {formatDateTime(current.since)} to {formatDateTime(current.until)}
            {current.completedAt ? `; finished ${formatDateTime(current.completedAt)}` : ""}
            {current.error ? `: ${current.error}` : ""}
          </p>
        </div>
      )}
    </div>
  );
}

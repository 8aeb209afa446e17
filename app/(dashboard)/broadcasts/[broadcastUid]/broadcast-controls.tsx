"use client";
// Pause, resume, cancel and retry failed, as the broadcast's state allows them
// (docs/broadcasts.md "States", "Retrying failed recipients"); retry failed only while some
// failure can be retried now (else, for marketing-cap failures, from when); cancelling asks first. A change the state no longer allows (another member or
// the service changed it meanwhile) is said on the page, and the page shows the new state.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormAlert } from "@/components/ui/form-alert";
import { formatDateTime } from "@/components/ui/format";
import { countOf } from "@/lib/core/count";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { cancelBroadcastAction, pauseBroadcastAction, resumeBroadcastAction, retryFailedAction } from "./actions";

type Retried = { requeued: number; waiting: number; retryableAt: string | null };
type Change = {
  verb: string;
  done: string | ((data: unknown) => string);
  action: (input: { uid: string }) => Promise<ActionResult<unknown>>;
};

const PAUSE: Change = { verb: "pause", done: "Broadcast paused", action: pauseBroadcastAction };
const RESUME: Change = { verb: "resume", done: "Broadcast resumed", action: resumeBroadcastAction };
const CANCEL: Change = { verb: "cancel", done: "Broadcast cancelled", action: cancelBroadcastAction };
const RETRY: Change = {
  verb: "retry the failed recipients of",
  done: (data) => {
    const r = data as Retried;
    const queued = r.requeued === 0 ? "No failed recipient can be retried now" : `${count(r.requeued)} queued again`;
    const later =
      r.waiting > 0 && r.retryableAt
        ? `; ${count(r.waiting)} hit the marketing limit and can be retried from ${formatDateTime(r.retryableAt)}`
        : "";
    return `${queued}${later}`;
  },
  action: retryFailedAction,
};
const count = (n: number) => countOf(n, "recipient");

/** lib/domains/broadcasts/retryable.ts, as the page hands it over. */
export type RetryableNow = { now: number; waiting: number; retryableAt: string | null };

export function BroadcastControls({
  uid,
  status,
  retryable,
}: {
  uid: string;
  status: string;
  retryable: RetryableNow;
}) {
  const router = useRouter();
  const toast = useToast();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const run = (change: Change) =>
    start(async () => {
      setError(null);
      const result = await change.action({ uid });
      if (result.ok) toast.success(typeof change.done === "string" ? change.done : change.done(result.data));
      else {
        const message =
          result.code === "BROADCAST_STATE_CONFLICT"
            ? `Could not ${change.verb} it: ${result.message}. The page now shows its current state.`
            : `Could not ${change.verb} it: ${result.message}`;
        setError(message);
        toast.error(message);
      }
      router.refresh();
    });

  const canPause = status === "SENDING";
  const canResume = status === "PAUSED";
  const canCancel = status !== "COMPLETED" && status !== "CANCELLED";
  const retryState = status === "SENDING" || status === "PAUSED" || status === "COMPLETED";
  const canRetry = retryState && retryable.now > 0;
  // Nothing to retry now, but marketing-cap failures will be: say when instead of a button that does nothing.
  const later =
    retryState && !canRetry && retryable.waiting > 0 && retryable.retryableAt ? (
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="retry-later">
        {count(retryable.waiting)} hit the provider's marketing limit: they can be retried from{" "}
        {formatDateTime(retryable.retryableAt)}.
      </p>
    ) : null;
  if (!canPause && !canResume && !canCancel && !canRetry) {
    return (
      <>
        <FormAlert message={error} />
        {later}
      </>
    );
  }
  return (
    <div className="space-y-3">
      <FormAlert message={error} />
      {later}
      <div className="flex flex-wrap gap-2">
        {canPause ? (
          <button type="button" className={buttonSecondary} disabled={pending} onClick={() => run(PAUSE)}>
            Pause
          </button>
        ) : null}
        {canResume ? (
          <button type="button" className={button} disabled={pending} onClick={() => run(RESUME)}>
            Resume
          </button>
        ) : null}
        {canRetry ? (
          <button type="button" className={buttonSecondary} disabled={pending} onClick={() => run(RETRY)}>
            Retry failed
          </button>
        ) : null}
        {canCancel ? (
          <ConfirmButton
            label="Cancel broadcast"
            title="Cancel this broadcast?"
            confirmLabel="Cancel broadcast"
            dismissLabel="Keep it"
            disabled={pending}
            onConfirm={() => run(CANCEL)}
          >
            Recipients not sent yet are skipped (cancelled) and nobody else gets the message. Messages already sent stay
            sent. This cannot be undone.
          </ConfirmButton>
        ) : null}
      </div>
    </div>
  );
}

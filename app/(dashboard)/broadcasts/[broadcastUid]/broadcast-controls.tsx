"use client";
// Pause, resume and cancel, as the broadcast's state allows them (docs/broadcasts.md
// "States"); cancelling asks first. A change the state no longer allows (another member or
// the service changed it meanwhile) is said on the page, and the page shows the new state.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { cancelBroadcastAction, pauseBroadcastAction, resumeBroadcastAction } from "./actions";

type Change = { verb: string; done: string; action: (input: { uid: string }) => Promise<ActionResult<unknown>> };

const PAUSE: Change = { verb: "pause", done: "Broadcast paused", action: pauseBroadcastAction };
const RESUME: Change = { verb: "resume", done: "Broadcast resumed", action: resumeBroadcastAction };
const CANCEL: Change = { verb: "cancel", done: "Broadcast cancelled", action: cancelBroadcastAction };

export function BroadcastControls({ uid, status }: { uid: string; status: string }) {
  const router = useRouter();
  const toast = useToast();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const run = (change: Change) =>
    start(async () => {
      setError(null);
      const result = await change.action({ uid });
      if (result.ok) toast.success(change.done);
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
  if (!canPause && !canResume && !canCancel) return <FormAlert message={error} />;
  return (
    <div className="space-y-3">
      <FormAlert message={error} />
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

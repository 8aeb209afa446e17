"use client";
// Rotating the signing secret (docs/event-pipeline.md "Secret rotation"): the new secret is
// shown once; the previous one keeps signing beside it for the chosen grace.
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { buttonSecondary, input, label } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { SecretOnce } from "@/components/ui/secret-once";
import { rotateSecretAction } from "../actions";

const GRACES: [number, string][] = [
  [0, "None: the old secret stops at once"],
  [3600, "1 hour"],
  [86_400, "24 hours (default)"],
  [3 * 86_400, "3 days"],
  [7 * 86_400, "7 days"],
];

export function SecretRotate({ senderPhone, uid }: { senderPhone: string; uid: string }) {
  const id = useId();
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [grace, setGrace] = useState(86_400);
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = () =>
    start(async () => {
      const result = await rotateSecretAction({ senderId: senderPhone, uid, gracePeriodSeconds: grace });
      if (result.ok) {
        setSecret(result.data.signingSecret);
        toast.success("Signing secret rotated");
      } else toast.error(result.message);
      router.refresh();
    });
  return (
    <div className="space-y-3">
      {secret && <SecretOnce title="New signing secret" value={secret} testId="rotated-secret" />}
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={id} className={label}>
            Keep signing with the old secret too for
          </label>
          <select id={id} className={input} value={grace} onChange={(e) => setGrace(Number(e.target.value))}>
            {GRACES.map(([seconds, text]) => (
              <option key={seconds} value={seconds}>
                {text}
              </option>
            ))}
          </select>
        </div>
        {grace === 0 ? (
          // No grace: deliveries signed with the old secret fail at the receiver until it has
          // the new one, so this one asks first.
          <ConfirmButton
            label={pending ? "Rotating…" : "Rotate signing secret"}
            title="Stop the old signing secret at once?"
            confirmLabel="Rotate now"
            disabled={pending}
            onConfirm={rotate}
          >
            The old secret stops signing immediately: your endpoint rejects every delivery until it is given the new
            secret, shown once after rotating. Choose a grace period to keep both for a while instead.
          </ConfirmButton>
        ) : (
          <button type="button" className={buttonSecondary} disabled={pending} onClick={rotate}>
            {pending ? "Rotating…" : "Rotate signing secret"}
          </button>
        )}
      </div>
    </div>
  );
}

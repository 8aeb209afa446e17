"use client";
// Rotating the signing secret (docs/event-pipeline.md "Secret rotation"): the new secret is
// shown once; the previous one keeps signing beside it for the chosen grace.
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { buttonSecondary, input, label } from "@/components/ui/classes";
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
        <button type="button" className={buttonSecondary} disabled={pending} onClick={rotate}>
          {pending ? "Rotating…" : "Rotate signing secret"}
        </button>
      </div>
    </div>
  );
}

"use client";
import { useState } from "react";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { buttonSecondary, input } from "@/components/ui/classes";
import { FieldMessage } from "@/components/ui/field-message";
import { formatDateTime } from "@/components/ui/format";
import { SecretOnce } from "@/components/ui/secret-once";
import { rotateTokenAction } from "./actions";

const GRACE_CHOICES = [
  { hours: 0, label: "Stop the old token now" },
  { hours: 1, label: "Old token works 1 hour more" },
  { hours: 24, label: "Old token works 24 hours more" },
  { hours: 72, label: "Old token works 3 days more" },
  { hours: 168, label: "Old token works 7 days more" },
];

/** Rotation with overlap (docs/tokens.md): the successor is shown once, here. */
export function RotateTokenForm({ id, name }: { id: string; name: string }) {
  const [result, setResult] = useState<{ token: string; previousExpiresAt: string | null } | null>(null);
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => rotateTokenAction({ ...formStrings(data), tokenId: id }),
    success: `Token “${name}” rotated`,
    onSuccess: ({ data, router }) => {
      setResult(data);
      router.refresh();
    },
  });
  const selectId = `rotate-grace-${id}`;
  return (
    <div className="space-y-2">
      <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2" noValidate>
        <label htmlFor={selectId} className="sr-only">
          Grace period for “{name}”
        </label>
        {/* As wide as its longest choice: the grace must be read whole. */}
        <select id={selectId} name="graceHours" defaultValue="24" className={`${input} w-auto min-w-max`}>
          {GRACE_CHOICES.map((c) => (
            <option key={c.hours} value={c.hours}>
              {c.label}
            </option>
          ))}
        </select>
        <button type="submit" className={buttonSecondary} disabled={pending}>
          {pending ? "Rotating…" : "Rotate"}
        </button>
      </form>
      <FieldMessage inputId={selectId} message={fields.graceHours} />
      {result && (
        <div data-testid="rotated-token">
          <SecretOnce title={`New token for “${name}”`} value={result.token} testId="rotated-token-value" />
          <p className="mt-1 text-sm">
            The old token stops working {result.previousExpiresAt ? formatDateTime(result.previousExpiresAt) : "now"}.
          </p>
        </div>
      )}
    </div>
  );
}

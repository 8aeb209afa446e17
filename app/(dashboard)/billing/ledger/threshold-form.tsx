"use client";
import { useActionForm } from "@/components/dashboard/use-action-form";
import { button } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { setLowBalanceThresholdAction } from "./actions";

/** The account's low-balance threshold: below it, billing.balance.low once and the banner (docs/api/billing.md "Low balance"). */
export function ThresholdForm({ threshold, currency }: { threshold: number | null; currency: string }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => setLowBalanceThresholdAction({ threshold: String(data.get("threshold") ?? "") }),
    success: "Low-balance alert saved",
    onSuccess: ({ router }) => router.refresh(),
  });
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate aria-label="Low-balance alert">
      <TextField
        id="low-balance-threshold"
        label={`Alert below (${currency}; empty: never)`}
        name="threshold"
        inputMode="decimal"
        defaultValue={threshold === null ? "" : String(threshold)}
        message={fields.threshold}
      />
      <button type="submit" className={button} disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

"use client";
import { ActionButton } from "@/components/dashboard/action-button";
import { useActionForm } from "@/components/dashboard/use-action-form";
import { button, label } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { addSenderAction, makeDefaultAction } from "./actions";

/** Connect a number (lib/domains/senders/self-serve.ts): simulated ids in simulator mode, checked ids with a provider. */
export function SenderForm({ simulated }: { simulated: boolean }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) =>
      addSenderAction({
        phoneNumber: String(data.get("phoneNumber") ?? ""),
        phoneNumberId: String(data.get("phoneNumberId") ?? "") || undefined,
        // A checkbox posts "on" when ticked and nothing otherwise.
        makeDefault: data.get("makeDefault") === "on",
      }),
    success: "Sender added",
    onSuccess: ({ form, router }) => {
      form.reset();
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" noValidate aria-label="Add a sender">
      <TextField
        id="sender-phone"
        label="Phone number (E.164)"
        name="phoneNumber"
        required
        placeholder="+15550001234"
        message={fields.phoneNumber ?? fields.phone}
      />
      <TextField
        id="sender-pnid"
        label={`Provider phone number id${simulated ? " (optional: simulated)" : ""}`}
        name="phoneNumberId"
        required={!simulated}
        message={fields.phoneNumberId}
      />
      <div className="flex items-end gap-2">
        <input id="sender-default" name="makeDefault" type="checkbox" className="mb-3" />
        <label htmlFor="sender-default" className={`${label} mb-2`}>
          Make it the default
        </label>
      </div>
      <div className="flex items-end">
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Adding…" : "Add sender"}
        </button>
      </div>
    </form>
  );
}

export function MakeDefaultButton({ phoneNumber }: { phoneNumber: string }) {
  return (
    <ActionButton
      action={() => makeDefaultAction({ phoneNumber })}
      success={`${phoneNumber} is now the default`}
      label="Make default"
    />
  );
}

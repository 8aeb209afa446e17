"use client";
import { ActionButton } from "@/components/dashboard/action-button";
import { PhoneCountrySelect } from "@/components/dashboard/phone-country-select";
import { useAction, useActionForm } from "@/components/dashboard/use-action-form";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { errorProps, FieldMessage, TextField } from "@/components/ui/field-message";
import { addSenderAction, makeDefaultAction, removeSenderAction, renameSenderAction } from "./actions";

/** Connect a number (lib/domains/onboarding/connect-sender.ts): simulated ids in simulator mode, checked ids with a provider. */
export function SenderForm({ simulated }: { simulated: boolean }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) =>
      addSenderAction({
        phoneNumber: String(data.get("phoneNumber") ?? ""),
        country: String(data.get("country") ?? "") || undefined,
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
        label="Phone number (with + and country code)"
        name="phoneNumber"
        required
        placeholder="+1 415 555 0123"
        inputMode="tel"
        message={fields.phoneNumber ?? fields.phone}
      />
      <PhoneCountrySelect id="sender-country" />
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

/** The sender's name, edited in place (empty: none). */
export function RenameSenderForm({ phoneNumber, displayName }: { phoneNumber: string; displayName: string | null }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) =>
      renameSenderAction({ phoneNumber, displayName: String(data.get("displayName") ?? "").trim() || null }),
    success: `${phoneNumber} renamed`,
  });
  const id = `sender-name-${phoneNumber.slice(1)}`;
  return (
    <form onSubmit={onSubmit} className="flex items-start gap-2" aria-label={`Name of ${phoneNumber}`}>
      <div>
        <label htmlFor={id} className="sr-only">
          Name of {phoneNumber}
        </label>
        <input
          id={id}
          name="displayName"
          defaultValue={displayName ?? ""}
          placeholder="No name"
          maxLength={120}
          className={`${input} min-w-32`}
          {...errorProps(id, fields.displayName)}
        />
        <FieldMessage inputId={id} message={fields.displayName} />
      </div>
      <button type="submit" className={buttonSecondary} disabled={pending} aria-label={`Save name of ${phoneNumber}`}>
        {pending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

/** Removes a sender after asking: one with history is kept, deactivated, with its conversations. */
export function RemoveSenderButton({ phoneNumber }: { phoneNumber: string }) {
  const remove = useAction();
  return (
    <ConfirmButton
      label={remove.pending ? "Removing…" : "Remove"}
      title={`Remove ${phoneNumber}?`}
      confirmLabel="Remove sender"
      disabled={remove.pending}
      onConfirm={() => remove.run(() => removeSenderAction({ phoneNumber }), `${phoneNumber} removed`)}
    >
      It stops sending at once. If it ever sent or received messages, it stays listed as removed, with its conversations
      and billing records; otherwise it is deleted. Adding the number again brings it back.
    </ConfirmButton>
  );
}

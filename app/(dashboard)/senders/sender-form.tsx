"use client";
import { formStrings, useAction, useActionForm } from "@/components/dashboard/use-action-form";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { addSenderAction, makeDefaultAction } from "./actions";

/** Connect a number (lib/senders/self-serve.ts): simulated ids in simulator mode, checked ids with a provider. */
export function SenderForm({ simulated }: { simulated: boolean }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => addSenderAction(formStrings(data)),
    success: "Sender added",
    onSuccess: ({ form, router }) => {
      form.reset();
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" noValidate aria-label="Add a sender">
      <div>
        <label htmlFor="sender-phone" className={label}>
          Phone number (E.164)
        </label>
        <input
          id="sender-phone"
          name="phone"
          required
          placeholder="+15550001234"
          className={input}
          {...errorProps("sender-phone", fields.phone)}
        />
        <FieldMessage inputId="sender-phone" message={fields.phone} />
      </div>
      <div>
        <label htmlFor="sender-pnid" className={label}>
          Provider phone number id{simulated ? " (optional: simulated)" : ""}
        </label>
        <input
          id="sender-pnid"
          name="phoneNumberId"
          required={!simulated}
          className={input}
          {...errorProps("sender-pnid", fields.phoneNumberId)}
        />
        <FieldMessage inputId="sender-pnid" message={fields.phoneNumberId} />
      </div>
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
  const { pending, run } = useAction();
  return (
    <button
      type="button"
      className={buttonSecondary}
      disabled={pending}
      onClick={() => run(() => makeDefaultAction(phoneNumber), `${phoneNumber} is now the default`)}
    >
      Make default
    </button>
  );
}

"use client";
// Add a number (with an optional reason) and remove one, through the page's server actions.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { button } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { TextField } from "@/components/ui/field-message";
import { addBlacklistAction, removeBlacklistAction } from "./actions";

export function AddToBlacklist({ senderId }: { senderId: string }) {
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => addBlacklistAction({ ...formStrings(data), senderId }),
    success: "Added to the blacklist",
    onSuccess: ({ form, router }) => {
      form.reset();
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate>
      <TextField
        id="blacklist-phone"
        label="Phone number (with + and country code)"
        name="phoneNumber"
        required
        placeholder="+14155550123"
        message={fields.phoneNumber}
      />
      <TextField
        id="blacklist-reason"
        label="Reason (optional)"
        name="reason"
        maxLength={200}
        message={fields.reason}
      />
      <button type="submit" className={`${button} sm:mt-6`} disabled={pending}>
        {pending ? "Adding…" : "Add to blacklist"}
      </button>
    </form>
  );
}

export function RemoveFromBlacklist({ senderId, phoneNumber }: { senderId: string; phoneNumber: string }) {
  const toast = useToast();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <ConfirmButton
      label={`Remove ${phoneNumber}`}
      title={`Remove ${phoneNumber} from the blacklist?`}
      confirmLabel="Remove"
      disabled={pending}
      onConfirm={async () => {
        setPending(true);
        const result = await removeBlacklistAction({ senderId, phoneNumber });
        setPending(false);
        if (!result.ok) {
          toast.error(result.message);
          return;
        }
        toast.success(`${phoneNumber} can be messaged again`);
        router.refresh();
      }}
    >
      Messages from {senderId} to this number will be sent again.
    </ConfirmButton>
  );
}

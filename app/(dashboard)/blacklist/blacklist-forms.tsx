"use client";
// Add a number (with an optional reason) and remove one, through the page's server actions.
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { addBlacklistAction, removeBlacklistAction } from "./actions";

export function AddToBlacklist({ senderId }: { senderId: string }) {
  const toast = useToast();
  const router = useRouter();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
    setPending(true);
    const result = await addBlacklistAction(senderId, data);
    setPending(false);
    if (!result.ok) {
      setFields(result.fields ?? { phoneNumber: result.message });
      toast.error(result.message);
      return;
    }
    setFields({});
    form.reset();
    toast.success(`${result.data.phoneNumber} is on the blacklist`);
    router.refresh();
  }
  const err = (n: string) =>
    fields[n] ? (
      <p id={`blacklist-${n}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
        {fields[n]}
      </p>
    ) : null;
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate>
      <div>
        <label htmlFor="blacklist-phone" className={label}>
          Phone number (E.164)
        </label>
        <input
          id="blacklist-phone"
          name="phoneNumber"
          required
          placeholder="+14155550123"
          className={input}
          aria-invalid={fields.phoneNumber ? true : undefined}
          aria-describedby={fields.phoneNumber ? "blacklist-phoneNumber-error" : undefined}
        />
        {err("phoneNumber")}
      </div>
      <div>
        <label htmlFor="blacklist-reason" className={label}>
          Reason (optional)
        </label>
        <input id="blacklist-reason" name="reason" maxLength={200} className={input} />
        {err("reason")}
      </div>
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
        const result = await removeBlacklistAction(senderId, phoneNumber);
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

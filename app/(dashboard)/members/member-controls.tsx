"use client";
// A member row's controls: change role (and an agent's senders), remove.
import { useState } from "react";
import { useAction, useActionForm } from "@/components/dashboard/use-action-form";
import { buttonSecondary, input } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { Role } from "@/lib/domains/auth/permissions";
import { changeMemberAction, removeMemberAction } from "./actions";
import { memberFields, SenderPicker } from "./sender-picker";

type Props = {
  id: string;
  email: string;
  role: Role;
  memberSenders: string[] | null;
  roles: Role[];
  senders: string[];
};

export function MemberControls({ id, email, role, memberSenders, roles, senders }: Props) {
  const [chosen, setChosen] = useState<Role>(role);
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => changeMemberAction({ ...memberFields(data), userId: id }),
    success: `${email} updated`,
  });
  const remove = useAction();
  const selectId = `role-${id}`;
  return (
    <div className="flex flex-wrap items-start gap-2">
      <form onSubmit={onSubmit} className="flex flex-wrap items-start gap-2" noValidate>
        <label htmlFor={selectId} className="sr-only">
          Role of {email}
        </label>
        <select
          id={selectId}
          name="role"
          className={`${input} w-auto`}
          value={chosen}
          onChange={(e) => setChosen(e.target.value as Role)}
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {chosen === "agent" && senders.length > 0 ? (
          <SenderPicker idPrefix={id} senders={senders} checked={memberSenders ?? []} error={fields.senders} />
        ) : null}
        <button type="submit" className={buttonSecondary} disabled={pending} aria-label={`Save role of ${email}`}>
          {pending ? "Saving…" : "Save"}
        </button>
      </form>
      <ConfirmButton
        label={remove.pending ? "Removing…" : "Remove"}
        title={`Remove ${email}?`}
        confirmLabel="Remove member"
        disabled={remove.pending}
        onConfirm={() => remove.run(() => removeMemberAction({ userId: id }), `${email} removed`)}
      >
        {email} loses access at once: their next click in the dashboard lands on the sign-in page.
      </ConfirmButton>
    </div>
  );
}

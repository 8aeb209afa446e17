"use client";
import { useState } from "react";
import { useActionForm } from "@/components/dashboard/use-action-form";
import { button, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import type { Role } from "@/lib/domains/auth/permissions";
import { inviteMemberAction } from "./actions";
import { memberFields, SenderPicker } from "./sender-picker";

export function InviteForm({ roles, senders }: { roles: { role: Role; summary: string }[]; senders: string[] }) {
  const [role, setRole] = useState<Role>("agent");
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => inviteMemberAction(memberFields(data)),
    success: "Invitation sent",
    onSuccess: ({ form, router }) => {
      form.reset();
      setRole("agent");
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4 md:grid-cols-3" noValidate>
      <div>
        <label htmlFor="invite-email" className={label}>
          Email
        </label>
        <input
          id="invite-email"
          name="email"
          type="email"
          required
          className={input}
          {...errorProps("invite-email", fields.email)}
        />
        <FieldMessage inputId="invite-email" message={fields.email} />
      </div>
      <div>
        <label htmlFor="invite-role" className={label}>
          Role
        </label>
        <select
          id="invite-role"
          name="role"
          className={input}
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
          {...errorProps("invite-role", fields.role)}
        >
          {roles.map((r) => (
            <option key={r.role} value={r.role}>
              {r.role}: {r.summary}
            </option>
          ))}
        </select>
        <FieldMessage inputId="invite-role" message={fields.role} />
      </div>
      <div className="flex items-end">
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Sending…" : "Send invitation"}
        </button>
      </div>
      {role === "agent" && senders.length > 0 ? (
        <div className="md:col-span-3">
          <SenderPicker idPrefix="invite" senders={senders} error={fields.senders} />
        </div>
      ) : null}
    </form>
  );
}

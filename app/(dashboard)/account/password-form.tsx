"use client";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { button } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { changePasswordAction } from "./actions";

/** Change one's password: the current one first; every other session is signed out. */
export function PasswordForm() {
  const form = useActionForm({
    action: (data) => changePasswordAction(formStrings(data)),
    success: "Password changed. Your other sessions were signed out.",
    onSuccess: ({ form: el, router }) => {
      el.reset();
      router.refresh();
    },
  });
  return (
    <form onSubmit={form.onSubmit} className="max-w-md space-y-4" noValidate>
      <TextField
        id="current-password"
        name="currentPassword"
        type="password"
        label="Current password"
        autoComplete="current-password"
        message={form.fields.currentPassword}
      />
      <TextField
        id="new-password"
        name="newPassword"
        type="password"
        label="New password (at least 10 characters)"
        autoComplete="new-password"
        message={form.fields.newPassword}
      />
      <button type="submit" className={button} disabled={form.pending}>
        {form.pending ? "Saving…" : "Change password"}
      </button>
    </form>
  );
}

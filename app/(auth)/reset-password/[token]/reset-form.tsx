"use client";
import Link from "next/link";
import { useState } from "react";
import { button, link } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { alertMessage, FormAlert } from "@/components/ui/form-alert";
import { resetPasswordAction } from "./actions";

/** Sets the new password; then the member signs in with it (every session was ended). */
export function ResetForm({ token, email }: { token: string; email: string }) {
  const [done, setDone] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    const result = await resetPasswordAction({ token, password });
    setPending(false);
    if (!result.ok) {
      setMessage(alertMessage(result, ["password"]));
      setFields(result.fields ?? {});
      return;
    }
    setDone(true);
  }

  if (done) {
    return (
      <p role="status" data-testid="password-reset-done">
        Your password was changed and every session was signed out.{" "}
        <Link className={link} href="/login">
          Sign in
        </Link>{" "}
        with the new password.
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <input type="email" value={email} readOnly hidden autoComplete="username" />
      <TextField
        id="reset-password"
        name="password"
        type="password"
        label="New password (at least 10 characters)"
        autoComplete="new-password"
        message={fields.password}
      />
      <FormAlert message={message} />
      <button type="submit" className={`${button} w-full`} disabled={pending}>
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}

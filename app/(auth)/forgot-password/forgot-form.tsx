"use client";
import { useState } from "react";
import { button } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { alertMessage, FormAlert } from "@/components/ui/form-alert";
import { requestResetAction } from "./actions";

/** Asks for the email; shows the one answer every request gets (no hint whether the account exists). */
export function ForgotForm() {
  const [sent, setSent] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await requestResetAction({ email: String(new FormData(event.currentTarget).get("email") ?? "") });
    setPending(false);
    if (!result.ok) {
      setMessage(alertMessage(result, ["email"]));
      setFields(result.fields ?? {});
      return;
    }
    setSent(result.data.message);
  }

  if (sent) {
    return (
      <p role="status" data-testid="reset-requested">
        {sent}
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <TextField
        id="forgot-email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        message={fields.email}
      />
      <FormAlert message={message} />
      <button type="submit" className={`${button} w-full`} disabled={pending}>
        {pending ? "Sending…" : "Email me a reset link"}
      </button>
    </form>
  );
}

"use client";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { button, input, label } from "@/components/ui/classes";
import { alertMessage, FormAlert } from "@/components/ui/form-alert";
import { signUpAction } from "./actions";

const FIELDS = [
  { name: "company", label: "Company name", type: "text", autoComplete: "organization" },
  { name: "name", label: "Your name (optional)", type: "text", autoComplete: "name" },
  { name: "email", label: "Work email", type: "email", autoComplete: "email" },
  { name: "password", label: "Password (at least 10 characters)", type: "password", autoComplete: "new-password" },
] as const;

export function SignupForm() {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(
      [...new FormData(event.currentTarget).entries()].map(([k, v]) => [k, String(v)]),
    ) as Record<string, string>;
    setPending(true);
    const result = await signUpAction(data);
    if (!result.ok) {
      setPending(false);
      setMessage(
        alertMessage(
          result,
          FIELDS.map((f) => f.name),
        ),
      );
      setFields(result.fields ?? {});
      return;
    }
    if (result.data.next === "check_email") {
      setSent(result.data.message);
      return;
    }
    await signIn("credentials", { redirect: false, email: data.email, password: data.password });
    // The dashboard home: the first-run checklist (app/(dashboard)/page.tsx).
    router.replace("/");
    router.refresh();
  }

  if (sent) {
    return (
      <p role="status" data-testid="signup-email-sent">
        {sent}
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      {FIELDS.map((f) => (
        <div key={f.name}>
          <label htmlFor={`signup-${f.name}`} className={label}>
            {f.label}
          </label>
          <input
            id={`signup-${f.name}`}
            name={f.name}
            type={f.type}
            autoComplete={f.autoComplete}
            required={f.name !== "name"}
            aria-invalid={fields[f.name] ? true : undefined}
            aria-describedby={fields[f.name] ? `signup-${f.name}-error` : undefined}
            className={input}
          />
          {fields[f.name] && (
            <p id={`signup-${f.name}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
              {fields[f.name]}
            </p>
          )}
        </div>
      ))}
      <FormAlert message={message} />
      <button type="submit" className={`${button} w-full`} disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}

"use client";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { button, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { alertMessage, FormAlert } from "@/components/ui/form-alert";
import { acceptInvitationAction } from "./actions";

/** Sets the invitee's name and password, joins, then signs in with them. */
export function AcceptForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const raw = { name: String(data.get("name") ?? ""), password: String(data.get("password") ?? "") };
    setPending(true);
    const result = await acceptInvitationAction({ ...raw, token });
    if (!result.ok) {
      setPending(false);
      setMessage(alertMessage(result, ["name", "password"]));
      setFields(result.fields ?? {});
      return;
    }
    const signedIn = await signIn("credentials", { redirect: false, email: result.data.email, password: raw.password });
    // The home page sends each role to its first page (app/(dashboard)/page.tsx).
    router.replace(signedIn?.ok ? "/" : "/login");
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <div>
        <label htmlFor="invite-email" className={label}>
          Email
        </label>
        <input id="invite-email" value={email} readOnly className={input} autoComplete="username" />
      </div>
      <div>
        <label htmlFor="invite-name" className={label}>
          Your name (optional)
        </label>
        <input
          id="invite-name"
          name="name"
          autoComplete="name"
          className={input}
          {...errorProps("invite-name", fields.name)}
        />
        <FieldMessage inputId="invite-name" message={fields.name} />
      </div>
      <div>
        <label htmlFor="invite-password" className={label}>
          Choose a password (at least 10 characters)
        </label>
        <input
          id="invite-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          className={input}
          {...errorProps("invite-password", fields.password)}
        />
        <FieldMessage inputId="invite-password" message={fields.password} />
      </div>
      <FormAlert message={message} />
      <button type="submit" className={`${button} w-full`} disabled={pending}>
        {pending ? "Joining…" : "Join"}
      </button>
    </form>
  );
}

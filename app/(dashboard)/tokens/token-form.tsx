"use client";
import { useState } from "react";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { button, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { SecretOnce } from "@/components/ui/secret-once";
import { createTokenAction } from "./actions";

export function TokenForm({ senders }: { senders: string[] }) {
  const [token, setToken] = useState<string | null>(null);
  const { onSubmit, pending, fields } = useActionForm({
    action: (data) => createTokenAction(formStrings(data)),
    success: "Token generated",
    onSuccess: ({ data, form, router }) => {
      setToken(data.token);
      form.reset();
      router.refresh();
    },
  });
  const err = (name: string, inputId: string) => <FieldMessage inputId={inputId} message={fields[name]} />;

  return (
    <div className="space-y-4">
      {token && <SecretOnce title="Your new API token" value={token} testId="new-token" />}
      <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" noValidate>
        <div>
          <label htmlFor="token-name" className={label}>
            Name
          </label>
          <input id="token-name" name="name" required className={input} {...errorProps("token-name", fields.name)} />
          {err("name", "token-name")}
        </div>
        <div>
          <label htmlFor="token-scope" className={label}>
            Scope
          </label>
          <select
            id="token-scope"
            name="senderId"
            className={input}
            defaultValue=""
            {...errorProps("token-scope", fields.senderId)}
          >
            <option value="">Global (all senders)</option>
            {senders.map((s) => (
              <option key={s} value={s}>
                Only {s}
              </option>
            ))}
          </select>
          {err("senderId", "token-scope")}
        </div>
        <div>
          <label htmlFor="token-expiry" className={label}>
            Expires on (optional)
          </label>
          <input
            id="token-expiry"
            name="expiresOn"
            type="date"
            className={input}
            {...errorProps("token-expiry", fields.expiresOn)}
          />
          {err("expiresOn", "token-expiry")}
        </div>
        <div className="flex items-end">
          <button type="submit" className={button} disabled={pending}>
            {pending ? "Generating…" : "Generate token"}
          </button>
        </div>
      </form>
    </div>
  );
}

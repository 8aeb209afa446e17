"use client";
import { useState } from "react";
import { formStrings, useActionForm } from "@/components/dashboard/use-action-form";
import { button, input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { SecretOnce } from "@/components/ui/secret-once";
import { createTokenAction } from "./actions";

/** A permission a token may hold, and what it allows (lib/domains/auth/permissions.ts). */
export type PermissionOption = { name: string; summary: string };

export function TokenForm({ senders, permissions }: { senders: string[]; permissions: PermissionOption[] }) {
  const [token, setToken] = useState<string | null>(null);
  const [restricted, setRestricted] = useState(false);
  const { onSubmit, pending, fields } = useActionForm({
    // "All permissions", or the checked ones (docs/tokens.md "Restricted tokens").
    action: (data) =>
      createTokenAction({
        ...formStrings(data),
        permissions: data.get("access") === "restricted" ? data.getAll("permissions").map(String) : "all",
      }),
    success: "Token generated",
    onSuccess: ({ data, form, router }) => {
      setToken(data.token);
      form.reset();
      setRestricted(false);
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
        <fieldset
          className="space-y-2 sm:col-span-2 lg:col-span-4"
          aria-describedby={fields.permissions ? "token-permissions-error" : undefined}
        >
          <legend className={label}>Permissions</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="access"
                value="all"
                checked={!restricted}
                onChange={() => setRestricted(false)}
              />
              All permissions
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="access"
                value="restricted"
                checked={restricted}
                onChange={() => setRestricted(true)}
              />
              Only these (a restricted token)
            </label>
          </div>
          {restricted ? (
            <div className="grid gap-1 sm:grid-cols-2">
              {permissions.map((p) => (
                <label key={p.name} className="flex items-start gap-2 text-sm">
                  <input type="checkbox" name="permissions" value={p.name} className="mt-1" />
                  <span>
                    <span className="font-mono">{p.name}</span>
                    <span className={`block ${muted}`}>{p.summary}</span>
                  </span>
                </label>
              ))}
            </div>
          ) : null}
          {fields.permissions ? (
            <p id="token-permissions-error" className="text-sm text-red-700 dark:text-red-300">
              {fields.permissions}
            </p>
          ) : null}
        </fieldset>
        <div className="flex items-end">
          <button type="submit" className={button} disabled={pending}>
            {pending ? "Generating…" : "Generate token"}
          </button>
        </div>
      </form>
    </div>
  );
}

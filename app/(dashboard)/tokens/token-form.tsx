"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label } from "@/components/ui/classes";
import { SecretOnce } from "@/components/ui/secret-once";
import { createTokenAction } from "./actions";

export function TokenForm({ senders }: { senders: string[] }) {
  const toast = useToast();
  const router = useRouter();
  const [token, setToken] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
    setPending(true);
    const result = await createTokenAction(data);
    setPending(false);
    if (!result.ok) {
      setFields(result.fields ?? {});
      toast.error(result.message);
      return;
    }
    setFields({});
    setToken(result.data.token);
    form.reset();
    toast.success("Token generated");
    router.refresh();
  }

  const err = (name: string) =>
    fields[name] ? (
      <p id={`token-${name}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
        {fields[name]}
      </p>
    ) : null;

  return (
    <div className="space-y-4">
      {token && <SecretOnce title="Your new API token" value={token} testId="new-token" />}
      <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" noValidate>
        <div>
          <label htmlFor="token-name" className={label}>
            Name
          </label>
          <input id="token-name" name="name" required className={input} aria-invalid={!!fields.name || undefined} />
          {err("name")}
        </div>
        <div>
          <label htmlFor="token-scope" className={label}>
            Scope
          </label>
          <select id="token-scope" name="senderId" className={input} defaultValue="">
            <option value="">Global (all senders)</option>
            {senders.map((s) => (
              <option key={s} value={s}>
                Only {s}
              </option>
            ))}
          </select>
          {err("senderId")}
        </div>
        <div>
          <label htmlFor="token-expiry" className={label}>
            Expires on (optional)
          </label>
          <input id="token-expiry" name="expiresOn" type="date" className={input} />
          {err("expiresOn")}
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

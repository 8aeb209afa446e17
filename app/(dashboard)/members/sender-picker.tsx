"use client";
// An agent's senders as checkboxes (none checked: every sender), shown only for the agent role.
import { label, muted } from "@/components/ui/classes";

export function SenderPicker({
  idPrefix,
  senders,
  checked = [],
  error,
}: {
  idPrefix: string;
  senders: string[];
  checked?: string[];
  error?: string;
}) {
  return (
    <fieldset className="space-y-1" aria-describedby={error ? `${idPrefix}-senders-error` : undefined}>
      <legend className={label}>Senders this agent works on</legend>
      <p className={muted}>None checked: every sender.</p>
      {senders.map((phone) => (
        <label key={phone} className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="senders" value={phone} defaultChecked={checked.includes(phone)} />
          <span className="font-mono">{phone}</span>
        </label>
      ))}
      {error ? (
        <p id={`${idPrefix}-senders-error`} className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A form's member fields as the schemas read them (checkboxes: every checked value). */
export const memberFields = (data: FormData) => ({
  email: String(data.get("email") ?? ""),
  role: String(data.get("role") ?? ""),
  senders: data.getAll("senders").map(String),
});

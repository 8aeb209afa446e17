"use client";
// The template's variables mapped from contact data (docs/broadcasts.md "Variables"): per
// parameter a source (name, phone number, email, a custom field or fixed text), chosen by the
// member (none is preselected: a guess would send the wrong text), and a default for contacts
// without a value, and the message rendered for the first recipients.
import { TemplatePreview } from "@/components/dashboard/template-fill";
import { input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { VARIABLE_SOURCES } from "@/lib/domains/broadcasts/schemas";
import { slotKey, slotLabel } from "@/lib/domains/templates/fill";
import type { ParameterSlot } from "@/lib/domains/templates/parameters";
import type { FieldChoice } from "./audience-fields";
import { emptyMapping, isFileSlot, type MappingDraft, type VariableSource } from "./draft";
import { HeaderFileField } from "./header-file-field";
import type { DraftEstimate } from "./use-draft-estimate";

const SOURCE_LABELS: Record<VariableSource, string> = {
  name: "Contact name",
  phoneNumber: "Phone number",
  email: "Email",
  field: "Custom field",
  constant: "Fixed text",
};

type Props = {
  slots: ParameterSlot[];
  fields: FieldChoice[];
  mappings: Record<string, MappingDraft>;
  onChange: (key: string, mapping: MappingDraft) => void;
  errors: Record<string, string>;
  /** The broadcast's sender: a header file uploaded here is its. */
  senderId: string;
};

export function VariableFields({ slots, fields, mappings, onChange, errors, senderId }: Props) {
  if (slots.length === 0)
    return <p className={muted}>This template has no variables: every contact gets the same text.</p>;
  return (
    <ol className="space-y-3">
      {slots.map((s) => {
        const key = slotKey(s);
        const m = mappings[key] ?? emptyMapping();
        const id = `bc-var-${key.replace(".", "-")}`;
        const path = `variables.${s.component}.${s.index}`;
        const set = (p: Partial<MappingDraft>) => onChange(key, { ...m, ...p });
        const sourceError = errors[`${path}.source`];
        const keyError = errors[`${path}.key`];
        const valueError = errors[`${path}.value`];
        const defaultError = errors[`${path}.default`];
        if (isFileSlot(s)) {
          return (
            <li key={key} aria-label={slotLabel(s)}>
              <HeaderFileField
                kind={s.kind}
                senderId={senderId}
                value={m.value}
                onChange={(value) => onChange(key, { ...m, source: "constant", value })}
                error={valueError ?? errors["variables.header"]}
              />
            </li>
          );
        }
        return (
          <li key={key} className="grid gap-2 sm:grid-cols-3 sm:items-start" aria-label={slotLabel(s)}>
            <div>
              <label htmlFor={`${id}-source`} className={label}>
                {slotLabel(s)} from
              </label>
              <select
                id={`${id}-source`}
                className={input}
                value={m.source}
                onChange={(e) => set({ source: e.target.value as VariableSource | "" })}
                {...errorProps(`${id}-source`, sourceError)}
              >
                <option value="">Choose…</option>
                {VARIABLE_SOURCES.map((src) => (
                  <option key={src} value={src} disabled={src === "field" && fields.length === 0}>
                    {SOURCE_LABELS[src]}
                  </option>
                ))}
              </select>
              <FieldMessage inputId={`${id}-source`} message={sourceError} />
            </div>
            {m.source === "field" ? (
              <div>
                <label htmlFor={`${id}-key`} className={label}>
                  {slotLabel(s)} custom field
                </label>
                <select
                  id={`${id}-key`}
                  className={input}
                  value={m.key}
                  onChange={(e) => set({ key: e.target.value })}
                  {...errorProps(`${id}-key`, keyError)}
                >
                  <option value="">Choose a field</option>
                  {fields.map((f) => (
                    <option key={f.key} value={f.key}>
                      {f.label} ({f.key})
                    </option>
                  ))}
                </select>
                <FieldMessage inputId={`${id}-key`} message={keyError} />
              </div>
            ) : m.source === "constant" ? (
              <div>
                <label htmlFor={`${id}-value`} className={label}>
                  {slotLabel(s)} text
                </label>
                <input
                  id={`${id}-value`}
                  className={input}
                  value={m.value}
                  onChange={(e) => set({ value: e.target.value })}
                  {...errorProps(`${id}-value`, valueError)}
                />
                <FieldMessage inputId={`${id}-value`} message={valueError} />
              </div>
            ) : (
              <div className="hidden sm:block" />
            )}
            {m.source === "constant" || m.source === "" ? null : (
              <div>
                <label htmlFor={`${id}-default`} className={label}>
                  {slotLabel(s)} default (optional)
                </label>
                <input
                  id={`${id}-default`}
                  className={input}
                  value={m.default}
                  onChange={(e) => set({ default: e.target.value })}
                  placeholder="When the contact has none"
                  {...errorProps(`${id}-default`, defaultError)}
                />
                <FieldMessage inputId={`${id}-default`} message={defaultError} />
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The message as the first recipients will read it, rendered with their own values. */
export function SamplePreviews({ components, estimate }: { components: unknown; estimate: DraftEstimate | undefined }) {
  if (!estimate) return null;
  if (estimate.samples.length === 0) {
    return <p className={muted}>No contact of this audience would get the message yet.</p>;
  }
  return (
    <ul className="grid gap-3 md:grid-cols-3" aria-label="Sample messages" data-testid="samples">
      {estimate.samples.map((s) => (
        <li key={s.phoneNumber} data-testid="sample">
          <p className="mb-1 font-mono text-xs text-slate-700 dark:text-slate-300">To {s.phoneNumber}</p>
          <TemplatePreview components={components} values={s.values} />
        </li>
      ))}
    </ul>
  );
}

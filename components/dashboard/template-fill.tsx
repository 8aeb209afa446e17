"use client";
// Filling a template before it is sent (docs/templates.md "Parameters"): one field per
// parameter the template asks for (header, body, buttons) and a live preview of the message
// as the recipient reads it. The slots, the send's components and the preview all come from
// lib/domains/templates (parameters.ts, fill.ts), the same code the send paths check with,
// so what the form builds is what the server accepts. Used by the Messages composer and the
// inbox's template picker.
import { useMemo, useState } from "react";
import { input, label, muted } from "@/components/ui/classes";
import { componentsFor, type FilledValues, renderTemplate, slotKey, slotLabel } from "@/lib/domains/templates/fill";
import { templateParameters } from "@/lib/domains/templates/parameters";

/** An approved template as the pickers offer it: its components give the fields and the preview. */
export type TemplateChoice = { name: string; language: string; category: string; components: unknown };

const keyOf = (t: Pick<TemplateChoice, "name" | "language">) => `${t.name}|${t.language}`;

/** The picked template, its values and the send's template object (name, language, components). */
export function useTemplateFill(templates: TemplateChoice[]) {
  const [picked, setPicked] = useState(templates[0] ? keyOf(templates[0]) : "");
  const [values, setValues] = useState<FilledValues>({});
  const template = templates.find((t) => keyOf(t) === picked) ?? null;
  return {
    picked,
    template,
    values,
    pick: (key: string) => {
      setPicked(key);
      setValues({});
    },
    setValue: (key: string, value: string) => setValues((v) => ({ ...v, [key]: value })),
    reset: () => setValues({}),
    /** The send's template: no components when the template takes no parameters. */
    sendTemplate: () => {
      if (!template) return null;
      const components = componentsFor(template.components, values);
      return {
        name: template.name,
        language: template.language,
        ...(components.length > 0 ? { components } : {}),
      };
    },
  };
}

export type TemplateFill = ReturnType<typeof useTemplateFill>;

/** The template select, one field per parameter, and the preview. */
export function TemplateFillFields({
  id,
  templates,
  fill,
}: {
  /** Prefix of the fields' ids (unique on the page). */
  id: string;
  templates: TemplateChoice[];
  fill: TemplateFill;
}) {
  const template = fill.template;
  const slots = useMemo(() => (template ? templateParameters(template.components).slots : []), [template]);
  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={`${id}-template`} className={label}>
          Template
        </label>
        <select
          id={`${id}-template`}
          className={input}
          value={fill.picked}
          onChange={(e) => fill.pick(e.target.value)}
          required
        >
          {templates.map((t) => (
            <option key={keyOf(t)} value={keyOf(t)}>
              {t.name} ({t.language}, {t.category.toLowerCase()})
            </option>
          ))}
        </select>
        {templates.length === 0 && <p className={muted}>No approved templates yet.</p>}
      </div>
      {slots.length > 0 ? (
        <fieldset className="space-y-2" data-testid="template-parameters">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Values</legend>
          {slots.map((s) => {
            const key = slotKey(s);
            const fieldId = `${id}-param-${key.replace(".", "-")}`;
            return (
              <div key={key}>
                <label htmlFor={fieldId} className={label}>
                  {slotLabel(s)}
                  {s.required ? "" : " (optional)"}
                </label>
                <input
                  id={fieldId}
                  className={input}
                  value={fill.values[key] ?? ""}
                  onChange={(e) => fill.setValue(key, e.target.value)}
                  placeholder={s.example ? `e.g. ${s.example}` : undefined}
                />
              </div>
            );
          })}
        </fieldset>
      ) : null}
      {template ? <TemplatePreview components={template.components} values={fill.values} /> : null}
    </div>
  );
}

/** The message as the recipient reads it; a variable still empty shows as {{n}}. */
export function TemplatePreview({ components, values }: { components: unknown; values: FilledValues }) {
  const rendered = renderTemplate(components, values);
  return (
    <figure
      className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-slate-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-slate-100"
      aria-label="Message preview"
      data-testid="template-preview"
    >
      <figcaption className="mb-1 text-xs font-medium text-slate-600 dark:text-slate-400">Preview</figcaption>
      {rendered.header ? <p className="font-semibold">{rendered.header}</p> : null}
      <p className="whitespace-pre-wrap break-words">{rendered.body}</p>
      {rendered.footer ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{rendered.footer}</p> : null}
      {rendered.buttons.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Buttons">
          {rendered.buttons.map((b, i) => (
            <li
              key={i}
              className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-indigo-800 dark:border-slate-600 dark:bg-slate-900 dark:text-indigo-300"
            >
              {b}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}

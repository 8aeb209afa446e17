"use client";
// The template builder (docs/templates.md "The builder"): name, category, language, header,
// body with a sample value per variable, footer and buttons, with the preview the recipient
// would see (samples filled in). The draft becomes the provider's components
// (lib/domains/templates/draft.ts), checked with the API's own schema, and is created and
// submitted for review by createTemplateAction, as POST /templates does.
import { useRouter } from "next/navigation";
import { type FormEvent, useMemo, useState } from "react";
import { TemplatePreview } from "@/components/dashboard/template-fill";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary, input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { FormAlert } from "@/components/ui/form-alert";
import {
  BUTTON_TYPES,
  type ButtonDraft,
  type ButtonType,
  draftComponents,
  draftProblem,
  emptyDraft,
  HEADER_FORMATS,
  type HeaderFormat,
  type TemplateDraft,
} from "@/lib/domains/templates/draft";
import { sampleValues } from "@/lib/domains/templates/fill";
import { variablesOf } from "@/lib/domains/templates/parameters";
import { TEMPLATE_CATEGORIES, TemplateFields } from "@/lib/domains/templates/schemas";
import { createTemplateAction } from "./actions";

const LANGUAGES = [
  ["en", "English"],
  ["en_US", "English (US)"],
  ["en_GB", "English (UK)"],
  ["es", "Spanish"],
  ["pt_BR", "Portuguese (Brazil)"],
  ["fr", "French"],
  ["de", "German"],
  ["it", "Italian"],
  ["nl", "Dutch"],
] as const;

const HEADER_LABELS: Record<HeaderFormat, string> = {
  NONE: "No header",
  TEXT: "Text",
  IMAGE: "Image",
  VIDEO: "Video",
  DOCUMENT: "Document",
};
const BUTTON_LABELS: Record<ButtonType, string> = {
  QUICK_REPLY: "Quick reply",
  URL: "Visit website",
  PHONE_NUMBER: "Call phone number",
  COPY_CODE: "Copy code",
};

export function TemplateBuilder({ senderPhone }: { senderPhone: string }) {
  const router = useRouter();
  const toast = useToast();
  const [name, setName] = useState("");
  const [category, setCategory] = useState<string>("UTILITY");
  const [language, setLanguage] = useState("en");
  const [draft, setDraft] = useState<TemplateDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const set = (patch: Partial<TemplateDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setButton = (i: number, patch: Partial<ButtonDraft>) =>
    set({ buttons: draft.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)) });
  const bodyVariables = useMemo(() => variablesOf(draft.body).names, [draft.body]);
  const headerTakesValue = draft.headerFormat === "TEXT" && variablesOf(draft.headerText).names.length > 0;
  const components = useMemo(() => draftComponents(draft), [draft]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = draftProblem(draft);
    const parsed = TemplateFields.safeParse({ name, language, category, components });
    if (problem || !parsed.success) {
      const fields: Record<string, string> = {};
      if (!parsed.success) for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      const first = problem ?? Object.values(fields)[0] ?? "Check the form";
      setMessage(first);
      toast.error(first);
      return;
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const result = await createTemplateAction({ senderId: senderPhone, template: parsed.data });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fields ?? {});
      setMessage(result.message);
      toast.error(result.message);
      return;
    }
    toast.success("Template submitted for review");
    router.push(`/templates/${result.data.uid}`);
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" aria-label="New template">
      <div className="space-y-4">
        <div>
          <label htmlFor="tpl-name" className={label}>
            Name
          </label>
          <input
            id="tpl-name"
            className={`${input} font-mono`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="order_update"
            aria-describedby="tpl-name-hint"
            {...errorProps("tpl-name", errors.name)}
          />
          <p id="tpl-name-hint" className={muted}>
            Lower-case letters, digits and underscores.
          </p>
          <FieldMessage inputId="tpl-name" message={errors.name} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="tpl-category" className={label}>
              Category
            </label>
            <select id="tpl-category" className={input} value={category} onChange={(e) => setCategory(e.target.value)}>
              {TEMPLATE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c.charAt(0) + c.slice(1).toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="tpl-language" className={label}>
              Language
            </label>
            <select id="tpl-language" className={input} value={language} onChange={(e) => setLanguage(e.target.value)}>
              {LANGUAGES.map(([code, title]) => (
                <option key={code} value={code}>
                  {title} ({code})
                </option>
              ))}
            </select>
          </div>
        </div>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Header</legend>
          <label htmlFor="tpl-header-format" className={label}>
            Header type
          </label>
          <select
            id="tpl-header-format"
            className={input}
            value={draft.headerFormat}
            onChange={(e) => set({ headerFormat: e.target.value as HeaderFormat })}
          >
            {HEADER_FORMATS.map((f) => (
              <option key={f} value={f}>
                {HEADER_LABELS[f]}
              </option>
            ))}
          </select>
          {draft.headerFormat === "TEXT" ? (
            <>
              <label htmlFor="tpl-header-text" className={label}>
                Header text
              </label>
              <input
                id="tpl-header-text"
                className={input}
                value={draft.headerText}
                maxLength={60}
                onChange={(e) => set({ headerText: e.target.value })}
              />
              {headerTakesValue ? (
                <>
                  <label htmlFor="tpl-header-example" className={label}>
                    Sample for the header's {"{{1}}"}
                  </label>
                  <input
                    id="tpl-header-example"
                    className={input}
                    value={draft.headerExample}
                    onChange={(e) => set({ headerExample: e.target.value })}
                  />
                </>
              ) : null}
            </>
          ) : draft.headerFormat !== "NONE" ? (
            <p className={muted}>Each send gives the {draft.headerFormat.toLowerCase()} as a link.</p>
          ) : null}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Body</legend>
          <label htmlFor="tpl-body" className={label}>
            Body text
          </label>
          <textarea
            id="tpl-body"
            className={input}
            rows={4}
            maxLength={1024}
            value={draft.body}
            onChange={(e) => set({ body: e.target.value })}
            aria-describedby="tpl-body-hint"
          />
          <p id="tpl-body-hint" className={muted}>
            Variables are numbered {"{{1}}"}, {"{{2}}"}… in order; each send fills them. Give a sample for each.
          </p>
          {bodyVariables.map((v) => (
            <div key={v}>
              <label htmlFor={`tpl-body-example-${v}`} className={label}>
                Sample for {`{{${v}}}`}
              </label>
              <input
                id={`tpl-body-example-${v}`}
                className={input}
                value={draft.bodyExamples[v] ?? ""}
                onChange={(e) => set({ bodyExamples: { ...draft.bodyExamples, [v]: e.target.value } })}
              />
            </div>
          ))}
        </fieldset>

        <div>
          <label htmlFor="tpl-footer" className={label}>
            Footer (optional)
          </label>
          <input
            id="tpl-footer"
            className={input}
            value={draft.footer}
            maxLength={60}
            onChange={(e) => set({ footer: e.target.value })}
          />
        </div>

        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold">Buttons (optional)</legend>
          {draft.buttons.map((b, i) => (
            <div key={i} className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700">
              <div className="flex items-end gap-2">
                <div className="flex-1">
                  <label htmlFor={`tpl-button-${i}-type`} className={label}>
                    Button {i + 1} type
                  </label>
                  <select
                    id={`tpl-button-${i}-type`}
                    className={input}
                    value={b.type}
                    onChange={(e) => setButton(i, { type: e.target.value as ButtonType })}
                  >
                    {BUTTON_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {BUTTON_LABELS[t]}
                      </option>
                    ))}
                  </select>
                </div>
                <button
                  type="button"
                  className={buttonSecondary}
                  onClick={() => set({ buttons: draft.buttons.filter((_, j) => j !== i) })}
                >
                  Remove button {i + 1}
                </button>
              </div>
              {b.type !== "COPY_CODE" ? (
                <div>
                  <label htmlFor={`tpl-button-${i}-text`} className={label}>
                    Button {i + 1} label
                  </label>
                  <input
                    id={`tpl-button-${i}-text`}
                    className={input}
                    value={b.text}
                    maxLength={25}
                    onChange={(e) => setButton(i, { text: e.target.value })}
                  />
                </div>
              ) : null}
              {b.type === "URL" || b.type === "PHONE_NUMBER" ? (
                <div>
                  <label htmlFor={`tpl-button-${i}-value`} className={label}>
                    {b.type === "URL" ? `Button ${i + 1} URL (may end with {{1}})` : `Button ${i + 1} phone number`}
                  </label>
                  <input
                    id={`tpl-button-${i}-value`}
                    className={input}
                    value={b.value}
                    placeholder={b.type === "URL" ? "https://example.com/track/{{1}}" : "+14155550100"}
                    onChange={(e) => setButton(i, { value: e.target.value })}
                  />
                </div>
              ) : null}
              {(b.type === "URL" && variablesOf(b.value).names.length > 0) || b.type === "COPY_CODE" ? (
                <div>
                  <label htmlFor={`tpl-button-${i}-example`} className={label}>
                    {b.type === "URL" ? `Button ${i + 1} sample for {{1}}` : `Button ${i + 1} sample code`}
                  </label>
                  <input
                    id={`tpl-button-${i}-example`}
                    className={input}
                    value={b.example}
                    onChange={(e) => setButton(i, { example: e.target.value })}
                  />
                </div>
              ) : null}
            </div>
          ))}
          {draft.buttons.length < 10 ? (
            <button
              type="button"
              className={buttonSecondary}
              onClick={() =>
                set({ buttons: [...draft.buttons, { type: "QUICK_REPLY", text: "", value: "", example: "" }] })
              }
            >
              Add a button
            </button>
          ) : null}
        </fieldset>

        <FormAlert message={message} />
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Submitting…" : "Create and submit for review"}
        </button>
      </div>
      <div className="space-y-2">
        <h2 className="text-sm font-semibold">What the recipient sees</h2>
        <TemplatePreview components={components} values={sampleValues(components)} />
        <p className={muted}>With the samples filled in; each send gives its own values.</p>
      </div>
    </form>
  );
}

"use client";
// One reply (text or an approved template) as form fields; used for rules, fallback and away.
import { input, label } from "@/components/ui/classes";

export type ReplyDraft = { type: "text" | "template"; text: string; templateName: string; templateLanguage: string };

export const emptyReply = (text = ""): ReplyDraft => ({ type: "text", text, templateName: "", templateLanguage: "en" });

export function replyDraftOf(reply: unknown): ReplyDraft {
  const r = reply as { type?: string; text?: string; template?: { name?: string; language?: string } } | null;
  if (r?.type === "template") {
    return {
      type: "template",
      text: "",
      templateName: r.template?.name ?? "",
      templateLanguage: r.template?.language ?? "en",
    };
  }
  return emptyReply(r?.text ?? "");
}

export function replyOf(d: ReplyDraft) {
  return d.type === "template"
    ? { type: "template" as const, template: { name: d.templateName.trim(), language: d.templateLanguage.trim() } }
    : { type: "text" as const, text: d.text };
}

export function ReplyFields({
  id,
  legend,
  value,
  onChange,
  errors,
}: {
  id: string;
  legend: string;
  value: ReplyDraft;
  onChange: (next: ReplyDraft) => void;
  /** Field errors keyed by the path below this reply ("text", "template.name", ...). */
  errors: Record<string, string>;
}) {
  const err = (k: string) =>
    errors[k] ? (
      <p className="mt-1 text-sm text-red-700 dark:text-red-300" role="alert">
        {errors[k]}
      </p>
    ) : null;
  return (
    <fieldset className="space-y-2">
      <legend className={label}>{legend}</legend>
      <div className="flex gap-4 text-sm">
        {(["text", "template"] as const).map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input
              type="radio"
              name={`${id}-type`}
              checked={value.type === t}
              onChange={() => onChange({ ...value, type: t })}
            />
            {t === "text" ? "Text" : "Template"}
          </label>
        ))}
      </div>
      {value.type === "text" ? (
        <div>
          <label htmlFor={`${id}-text`} className="sr-only">
            {legend} text
          </label>
          <textarea
            id={`${id}-text`}
            rows={2}
            className={input}
            value={value.text}
            onChange={(e) => onChange({ ...value, text: e.target.value })}
          />
          {err("text")}
        </div>
      ) : (
        <div className="grid gap-2 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-tname`} className={label}>
              Template name
            </label>
            <input
              id={`${id}-tname`}
              className={input}
              value={value.templateName}
              onChange={(e) => onChange({ ...value, templateName: e.target.value })}
            />
            {err("template.name")}
          </div>
          <div>
            <label htmlFor={`${id}-tlang`} className={label}>
              Language
            </label>
            <input
              id={`${id}-tlang`}
              className={input}
              value={value.templateLanguage}
              onChange={(e) => onChange({ ...value, templateLanguage: e.target.value })}
            />
            {err("template.language")}
          </div>
        </div>
      )}
    </fieldset>
  );
}

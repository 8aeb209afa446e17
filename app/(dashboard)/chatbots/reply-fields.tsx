"use client";
// One reply (text, an approved template, reply buttons, a list menu or a link button) as form
// fields, with a live preview of the interactive ones; used for rules, fallback and away. A
// list of several sections made through the API is kept as saved (shown, not edited here)
// unless another type is chosen.
import { input, label } from "@/components/ui/classes";
import type { InteractiveReply } from "@/lib/domains/chatbots/engine";
import {
  BodyField,
  type ButtonDraft,
  ButtonsFields,
  ButtonsPreview,
  CtaFields,
  CtaPreview,
  ListFields,
  ListPreview,
  type RowDraft,
} from "./interactive-fields";

export type ReplyDraft = {
  type: "text" | "template" | "buttons" | "list" | "cta_url" | "kept";
  text: string;
  templateName: string;
  templateLanguage: string;
  /** Buttons, a list or a link: the message. */
  body: string;
  /** Buttons: 1-3. */
  buttons: ButtonDraft[];
  /** A list: the button that opens it, its one section's title and its 1-10 rows. */
  listButton: string;
  sectionTitle: string;
  rows: RowDraft[];
  /** A link button: its text and https link. */
  ctaText: string;
  ctaUrl: string;
  /** The saved interactive reply: a list of several sections kept as it is, or the header/footer it had. */
  saved?: InteractiveReply;
};

export const emptyReply = (text = ""): ReplyDraft => ({
  type: "text",
  text,
  templateName: "",
  templateLanguage: "en",
  body: "",
  buttons: [{ id: "", title: "" }],
  listButton: "",
  sectionTitle: "",
  rows: [{ id: "", title: "", description: "" }],
  ctaText: "",
  ctaUrl: "",
});

/** The draft of a saved interactive reply; a list of several sections is not edited here. */
function interactiveDraft(r: InteractiveReply): ReplyDraft {
  const { body, buttons, list, ctaUrl } = r.interactive;
  const base = { ...emptyReply(), body, saved: r };
  if (r.type === "buttons") return { ...base, type: "buttons", buttons: (buttons ?? []).map((b) => ({ ...b })) };
  if (r.type === "cta_url")
    return { ...base, type: "cta_url", ctaText: ctaUrl?.displayText ?? "", ctaUrl: ctaUrl?.url ?? "" };
  const [section, ...more] = list?.sections ?? [];
  if (!section || more.length > 0) return { ...emptyReply(), type: "kept", saved: r };
  return {
    ...base,
    type: "list",
    listButton: list?.button ?? "",
    sectionTitle: section.title ?? "",
    rows: section.rows.map((row) => ({ id: row.id, title: row.title, description: row.description ?? "" })),
  };
}

export function replyDraftOf(reply: unknown): ReplyDraft {
  const r = reply as
    | { type?: string; text?: string; template?: { name?: string; language?: string } }
    | InteractiveReply
    | null;
  if (r?.type === "template" && "template" in r) {
    return {
      ...emptyReply(),
      type: "template",
      templateName: r.template?.name ?? "",
      templateLanguage: r.template?.language ?? "en",
    };
  }
  if (r && "interactive" in r) return interactiveDraft(r);
  return emptyReply((r as { text?: string } | null)?.text ?? "");
}

export function replyOf(d: ReplyDraft) {
  if (d.type === "template")
    return {
      type: "template" as const,
      template: { name: d.templateName.trim(), language: d.templateLanguage.trim() },
    };
  if (d.type === "buttons" || d.type === "list" || d.type === "cta_url") {
    // A header or footer saved through the API stays (a list's header is text only: the schema says so).
    const { header, footer } = d.saved?.type === d.type ? d.saved.interactive : {};
    const common = { ...(header ? { header } : {}), body: d.body, ...(footer ? { footer } : {}) };
    if (d.type === "buttons") return { type: "buttons" as const, interactive: { ...common, buttons: d.buttons } };
    if (d.type === "cta_url")
      return {
        type: "cta_url" as const,
        interactive: { ...common, ctaUrl: { displayText: d.ctaText, url: d.ctaUrl } },
      };
    const rows = d.rows.map((r) => ({
      id: r.id,
      title: r.title,
      ...(r.description ? { description: r.description } : {}),
    }));
    const section = { ...(d.sectionTitle ? { title: d.sectionTitle } : {}), rows };
    return { type: "list" as const, interactive: { ...common, list: { button: d.listButton, sections: [section] } } };
  }
  if (d.type === "kept" && d.saved) return d.saved;
  return { type: "text" as const, text: d.text };
}

const TYPE_LABELS = {
  text: "Text",
  template: "Template",
  buttons: "Buttons",
  list: "List",
  cta_url: "Link button",
  kept: "As saved",
} as const;
const EDITABLE = ["text", "template", "buttons", "list", "cta_url"] as const;

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
        {(value.type === "kept" || (value.saved !== undefined && interactiveDraft(value.saved).type === "kept")
          ? ([...EDITABLE, "kept"] as const)
          : EDITABLE
        ).map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input
              type="radio"
              name={`${id}-type`}
              checked={value.type === t}
              onChange={() => onChange({ ...value, type: t })}
            />
            {TYPE_LABELS[t]}
          </label>
        ))}
      </div>
      {value.type === "kept" && value.saved ? (
        <p className="text-sm" data-testid="kept-reply">
          A list of several sections saved through the API: “{value.saved.interactive.body}” (kept as it is; edit it
          through the API)
        </p>
      ) : value.type === "buttons" || value.type === "list" || value.type === "cta_url" ? (
        <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
          <div className="space-y-2">
            <BodyField id={id} value={value.body} onChange={(body) => onChange({ ...value, body })} err={err} />
            {value.type === "buttons" ? (
              <ButtonsFields
                id={id}
                buttons={value.buttons}
                onChange={(buttons) => onChange({ ...value, buttons })}
                err={err}
              />
            ) : value.type === "list" ? (
              <ListFields
                id={id}
                button={value.listButton}
                sectionTitle={value.sectionTitle}
                rows={value.rows}
                onChange={(part) => onChange({ ...value, ...part })}
                err={err}
              />
            ) : (
              <CtaFields
                id={id}
                text={value.ctaText}
                url={value.ctaUrl}
                onChange={(part) => onChange({ ...value, ...part })}
                err={err}
              />
            )}
          </div>
          {value.type === "buttons" ? (
            <ButtonsPreview body={value.body} buttons={value.buttons} />
          ) : value.type === "list" ? (
            <ListPreview
              body={value.body}
              button={value.listButton}
              sectionTitle={value.sectionTitle}
              rows={value.rows}
            />
          ) : (
            <CtaPreview body={value.body} text={value.ctaText} url={value.ctaUrl} />
          )}
        </div>
      ) : value.type === "text" ? (
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

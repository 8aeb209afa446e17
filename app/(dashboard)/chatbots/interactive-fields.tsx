"use client";
// The interactive replies of the chatbot editor (docs/chatbots.md "Dashboard"): reply buttons,
// a list menu (one section of up to 10 rows) and a link button, each with its live preview as
// the contact sees it. Field errors come keyed by the API schema's path below the reply.
import type { ReactNode } from "react";
import { buttonSecondary, input, label } from "@/components/ui/classes";
import { INTERACTIVE_LIMITS } from "@/lib/domains/messaging/interactive";

export type ButtonDraft = { id: string; title: string };
export type RowDraft = { id: string; title: string; description: string };

type Errors = (key: string) => ReactNode;

const BUBBLE =
  "rounded-lg bg-emerald-50 p-2 text-sm whitespace-pre-wrap text-slate-900 dark:bg-emerald-950 dark:text-slate-100";
const CHIP =
  "mt-1 rounded-lg border border-slate-300 p-1 text-center text-sm text-sky-800 dark:border-slate-600 dark:text-sky-300";

/** The message of an interactive reply (its body). */
export function BodyField({
  id,
  value,
  onChange,
  err,
}: {
  id: string;
  value: string;
  onChange: (body: string) => void;
  err: Errors;
}) {
  return (
    <div>
      <label htmlFor={`${id}-body`} className={label}>
        Message
      </label>
      <textarea
        id={`${id}-body`}
        rows={2}
        className={input}
        maxLength={INTERACTIVE_LIMITS.body}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {err("interactive.body")}
    </div>
  );
}

function TextInput({
  id,
  text,
  value,
  onChange,
  error,
}: {
  id: string;
  text: string;
  value: string;
  onChange: (v: string) => void;
  error: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      <input id={id} className={input} value={value} onChange={(e) => onChange(e.target.value)} />
      {error}
    </div>
  );
}

/** The buttons as the contact sees them: the message, then one button per line. */
export function ButtonsPreview({ body, buttons }: { body: string; buttons: ButtonDraft[] }) {
  return (
    <figure className="max-w-xs" data-testid="buttons-preview" aria-label="Preview">
      <div className={BUBBLE}>{body || "Message"}</div>
      {buttons.map((b, i) => (
        <div key={i} className={CHIP}>
          {b.title || `Button ${i + 1}`}
        </div>
      ))}
    </figure>
  );
}

export function ButtonsFields({
  id,
  buttons,
  onChange,
  err,
}: {
  id: string;
  buttons: ButtonDraft[];
  onChange: (buttons: ButtonDraft[]) => void;
  err: Errors;
}) {
  const set = (i: number, part: Partial<ButtonDraft>) =>
    onChange(buttons.map((x, j) => (j === i ? { ...x, ...part } : x)));
  return (
    <>
      {buttons.map((b, i) => (
        <div key={i} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto]">
          <TextInput
            id={`${id}-b${i}-title`}
            text={`Button ${i + 1} title`}
            value={b.title}
            onChange={(title) => set(i, { title })}
            error={err(`interactive.buttons.${i}.title`)}
          />
          <TextInput
            id={`${id}-b${i}-id`}
            text={`Button ${i + 1} reply id`}
            value={b.id}
            onChange={(v) => set(i, { id: v })}
            error={err(`interactive.buttons.${i}.id`)}
          />
          <button
            type="button"
            className={`${buttonSecondary} self-end`}
            disabled={buttons.length <= 1}
            onClick={() => onChange(buttons.filter((_, j) => j !== i))}
          >
            Remove button {i + 1}
          </button>
        </div>
      ))}
      {err("interactive.buttons")}
      {buttons.length < INTERACTIVE_LIMITS.buttons && (
        <button type="button" className={buttonSecondary} onClick={() => onChange([...buttons, { id: "", title: "" }])}>
          Add button
        </button>
      )}
    </>
  );
}

/** The list as the contact sees it: the message, the button that opens the list, and the open list. */
export function ListPreview({
  body,
  button,
  sectionTitle,
  rows,
}: {
  body: string;
  button: string;
  sectionTitle: string;
  rows: RowDraft[];
}) {
  return (
    <figure className="max-w-xs" data-testid="list-preview" aria-label="Preview">
      <div className={BUBBLE}>{body || "Message"}</div>
      <div className={CHIP}>
        <span aria-hidden="true">☰ </span>
        {button || "Menu"}
      </div>
      <div className="mt-2 rounded-lg border border-slate-300 p-2 text-sm dark:border-slate-600">
        {sectionTitle ? (
          <p className="text-xs font-semibold text-slate-700 dark:text-slate-300">{sectionTitle}</p>
        ) : null}
        <ul>
          {rows.map((r, i) => (
            <li key={i} className="py-1">
              <span className="block">{r.title || `Row ${i + 1}`}</span>
              {r.description ? (
                <span className="block text-xs text-slate-600 dark:text-slate-400">{r.description}</span>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </figure>
  );
}

const ROW = "interactive.list.sections.0.rows";

export function ListFields({
  id,
  button,
  sectionTitle,
  rows,
  onChange,
  err,
}: {
  id: string;
  button: string;
  sectionTitle: string;
  rows: RowDraft[];
  onChange: (next: { listButton?: string; sectionTitle?: string; rows?: RowDraft[] }) => void;
  err: Errors;
}) {
  const set = (i: number, part: Partial<RowDraft>) =>
    onChange({ rows: rows.map((x, j) => (j === i ? { ...x, ...part } : x)) });
  return (
    <>
      <div className="grid gap-2 sm:grid-cols-2">
        <TextInput
          id={`${id}-list-button`}
          text="List button"
          value={button}
          onChange={(listButton) => onChange({ listButton })}
          error={err("interactive.list.button")}
        />
        <TextInput
          id={`${id}-section`}
          text="Section title (optional)"
          value={sectionTitle}
          onChange={(v) => onChange({ sectionTitle: v })}
          error={err("interactive.list.sections.0.title")}
        />
      </div>
      {rows.map((r, i) => (
        <div key={i} className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto]">
          <TextInput
            id={`${id}-r${i}-title`}
            text={`Row ${i + 1} title`}
            value={r.title}
            onChange={(title) => set(i, { title })}
            error={err(`${ROW}.${i}.title`)}
          />
          <TextInput
            id={`${id}-r${i}-id`}
            text={`Row ${i + 1} reply id`}
            value={r.id}
            onChange={(v) => set(i, { id: v })}
            error={err(`${ROW}.${i}.id`)}
          />
          <TextInput
            id={`${id}-r${i}-description`}
            text={`Row ${i + 1} description (optional)`}
            value={r.description}
            onChange={(description) => set(i, { description })}
            error={err(`${ROW}.${i}.description`)}
          />
          <button
            type="button"
            className={`${buttonSecondary} self-end`}
            disabled={rows.length <= 1}
            onClick={() => onChange({ rows: rows.filter((_, j) => j !== i) })}
          >
            Remove row {i + 1}
          </button>
        </div>
      ))}
      {err("interactive.list.sections")}
      {err("interactive.list")}
      {rows.length < INTERACTIVE_LIMITS.rows && (
        <button
          type="button"
          className={buttonSecondary}
          onClick={() => onChange({ rows: [...rows, { id: "", title: "", description: "" }] })}
        >
          Add row
        </button>
      )}
    </>
  );
}

/** The link button as the contact sees it. */
export function CtaPreview({ body, text, url }: { body: string; text: string; url: string }) {
  return (
    <figure className="max-w-xs" data-testid="cta-preview" aria-label="Preview">
      <div className={BUBBLE}>{body || "Message"}</div>
      <div className={CHIP} title={url}>
        <span aria-hidden="true">↗ </span>
        {text || "Open"}
      </div>
    </figure>
  );
}

export function CtaFields({
  id,
  text,
  url,
  onChange,
  err,
}: {
  id: string;
  text: string;
  url: string;
  onChange: (next: { ctaText?: string; ctaUrl?: string }) => void;
  err: Errors;
}) {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <TextInput
        id={`${id}-cta-text`}
        text="Link button text"
        value={text}
        onChange={(ctaText) => onChange({ ctaText })}
        error={err("interactive.ctaUrl.displayText")}
      />
      <TextInput
        id={`${id}-cta-url`}
        text="Link (https)"
        value={url}
        onChange={(ctaUrl) => onChange({ ctaUrl })}
        error={err("interactive.ctaUrl.url")}
      />
    </div>
  );
}

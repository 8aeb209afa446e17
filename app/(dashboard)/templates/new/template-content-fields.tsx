// The builder's message parts as typed into the draft (lib/domains/templates/draft.ts): the
// header (none, text with a sample for its variable, or a medium given per send), the body
// with a sample per variable, and the footer.
import { input, label, muted } from "@/components/ui/classes";
import { HEADER_FORMATS, type HeaderFormat, type TemplateDraft } from "@/lib/domains/templates/draft";
import { variablesOf } from "@/lib/domains/templates/parameters";

const HEADER_LABELS: Record<HeaderFormat, string> = {
  NONE: "No header",
  TEXT: "Text",
  IMAGE: "Image",
  VIDEO: "Video",
  DOCUMENT: "Document",
};

type DraftProps = { draft: TemplateDraft; set: (patch: Partial<TemplateDraft>) => void };

export function HeaderFields({ draft, set }: DraftProps) {
  const takesValue = draft.headerFormat === "TEXT" && variablesOf(draft.headerText).names.length > 0;
  return (
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
          {takesValue ? (
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
  );
}

export function BodyFields({ draft, set }: DraftProps) {
  const variables = variablesOf(draft.body).names;
  return (
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
      {variables.map((v) => (
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
  );
}

export function FooterField({ draft, set }: DraftProps) {
  return (
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
  );
}

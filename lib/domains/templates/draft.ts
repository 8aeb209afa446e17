// The dashboard's template builder (docs/templates.md "The builder") keeps a draft: header,
// body with a sample value per variable, footer and buttons as typed. This turns it into the
// components the provider's creation takes (the shape POST /templates stores and
// parameters.ts reads), so the builder creates exactly what the API would. Pure.
import { variablesOf } from "./parameters";

export const HEADER_FORMATS = ["NONE", "TEXT", "IMAGE", "VIDEO", "DOCUMENT"] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];
export const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

export type ButtonDraft = {
  type: ButtonType;
  /** The label (a copy-code button's label is the provider's own). */
  text: string;
  /** URL (may end with {{1}}) or phone number; unused by quick replies and copy code. */
  value: string;
  /** A URL's sample for {{1}}, or the copy-code button's sample code. */
  example: string;
};

export type TemplateDraft = {
  headerFormat: HeaderFormat;
  headerText: string;
  headerExample: string;
  body: string;
  /** Sample values of the body's variables, by variable ("1", "2" or a name). */
  bodyExamples: Record<string, string>;
  footer: string;
  buttons: ButtonDraft[];
};

export const emptyDraft = (): TemplateDraft => ({
  headerFormat: "NONE",
  headerText: "",
  headerExample: "",
  body: "",
  bodyExamples: {},
  footer: "",
  buttons: [],
});

const trimmed = (s: string) => s.trim();

function button(b: ButtonDraft): Record<string, unknown> {
  switch (b.type) {
    case "URL": {
      const dynamic = variablesOf(b.value).names.length > 0;
      return {
        type: "URL",
        text: trimmed(b.text),
        url: trimmed(b.value),
        ...(dynamic && trimmed(b.example) ? { example: [trimmed(b.example)] } : {}),
      };
    }
    case "PHONE_NUMBER":
      return { type: "PHONE_NUMBER", text: trimmed(b.text), phone_number: trimmed(b.value) };
    case "COPY_CODE":
      return { type: "COPY_CODE", example: trimmed(b.example) };
    default:
      return { type: "QUICK_REPLY", text: trimmed(b.text) };
  }
}

/** The provider's components for a draft: HEADER, BODY, FOOTER, BUTTONS, each only when given. */
export function draftComponents(d: TemplateDraft): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (d.headerFormat === "TEXT" && trimmed(d.headerText)) {
    const takesValue = variablesOf(d.headerText).names.length > 0;
    out.push({
      type: "HEADER",
      format: "TEXT",
      text: trimmed(d.headerText),
      ...(takesValue && trimmed(d.headerExample) ? { example: { header_text: [trimmed(d.headerExample)] } } : {}),
    });
  } else if (d.headerFormat !== "NONE" && d.headerFormat !== "TEXT") {
    out.push({ type: "HEADER", format: d.headerFormat });
  }
  const body = trimmed(d.body);
  const { names, named } = variablesOf(body);
  const samples = names.map((n) => trimmed(d.bodyExamples[n] ?? ""));
  const example =
    names.length === 0 || samples.every((s) => s === "")
      ? undefined
      : named
        ? { body_text_named_params: names.map((n, i) => ({ param_name: n, example: samples[i] })) }
        : { body_text: [samples] };
  out.push({ type: "BODY", text: body, ...(example ? { example } : {}) });
  if (trimmed(d.footer)) out.push({ type: "FOOTER", text: trimmed(d.footer) });
  if (d.buttons.length > 0) out.push({ type: "BUTTONS", buttons: d.buttons.map(button) });
  return out;
}

/** What the draft lacks before it can be submitted (the first problem), or null. */
export function draftProblem(d: TemplateDraft): string | null {
  if (!trimmed(d.body)) return "Body: write the message text.";
  if (d.headerFormat === "TEXT" && !trimmed(d.headerText)) return "Header: write the header text, or pick no header.";
  const missing = variablesOf(trimmed(d.body)).names.find((n) => !trimmed(d.bodyExamples[n] ?? ""));
  if (missing) return `Body: give a sample value for {{${missing}}} (the review needs one per variable).`;
  for (const [i, b] of d.buttons.entries()) {
    const which = `Button ${i + 1}`;
    if (b.type !== "COPY_CODE" && !trimmed(b.text)) return `${which}: give it a label.`;
    if (b.type === "URL" && !/^https:\/\/\S+$/.test(trimmed(b.value)))
      return `${which}: the URL must start with https://.`;
    if (b.type === "PHONE_NUMBER" && !/^\+\d{6,15}$/.test(trimmed(b.value).replace(/[\s-]/g, ""))) {
      return `${which}: the phone number must be international, starting with +.`;
    }
    if (b.type === "COPY_CODE" && !trimmed(b.example)) return `${which}: give a sample code.`;
  }
  return null;
}

// Filling a template's slots (parameters.ts) with values typed in a form: the send's
// components, and the rendered message the dashboard previews before sending. Pure, so the
// composer, the inbox's template picker and the broadcast form fill templates alike.
import { MEDIA_ID_PATTERN } from "@/lib/domains/media/schemas";
import { type ParameterSlot, templateParameters } from "./parameters";

/** A media header's value: a file kept here by its mediaId, else a public link (docs/media.md "Sending media"). */
const MEDIA_ID = new RegExp(`^${MEDIA_ID_PATTERN.source}$`);

/** A slot's form key: "header.0", "body.1", "button.0". */
export const slotKey = (s: Pick<ParameterSlot, "component" | "index">) => `${s.component}.${s.index}`;

/** What a form shows beside a slot's field (components/dashboard/template-fill.tsx). */
export function slotLabel(s: ParameterSlot): string {
  if (s.component === "button") {
    const what = s.kind === "coupon_code" ? "coupon code" : s.kind === "payload" ? "payload" : "URL suffix";
    return `Button ${s.index + 1}${s.label ? ` "${s.label}"` : ""}: ${what}`;
  }
  if (s.kind !== "text")
    return `Header ${s.kind} ${s.kind === "location" ? "(latitude,longitude)" : "(link or mediaId)"}`;
  return `${s.component === "header" ? "Header" : "Body"} {{${s.variable}}}`;
}

export type FilledValues = Record<string, string>;

/** Each slot filled with the template's sample for it: the message as the review saw it. */
export function sampleValues(templateComponents: unknown): FilledValues {
  const values: FilledValues = {};
  for (const s of templateParameters(templateComponents).slots) if (s.example) values[slotKey(s)] = s.example;
  return values;
}

function parameterFor(s: ParameterSlot, value: string, named: boolean): Record<string, unknown> {
  switch (s.kind) {
    case "image":
    case "video":
    case "document":
      return { type: s.kind, [s.kind]: MEDIA_ID.test(value.trim()) ? { id: value.trim() } : { link: value } };
    case "location": {
      const [latitude, longitude] = value.split(",").map((v) => Number(v.trim()));
      return { type: "location", location: { latitude, longitude } };
    }
    case "coupon_code":
      return { type: "coupon_code", coupon_code: value };
    case "payload":
      return { type: "payload", payload: value };
    case "action":
      return { type: "action", action: {} };
    default:
      return named && s.component === "body"
        ? { type: "text", parameter_name: s.variable, text: value }
        : { type: "text", text: value };
  }
}

/** The send's components for these values (optional slots left blank are left out). */
export function componentsFor(templateComponents: unknown, values: FilledValues): Record<string, unknown>[] {
  const { slots, named } = templateParameters(templateComponents);
  const filled = slots.filter((s) => s.required || (values[slotKey(s)] ?? "").trim() !== "");
  const out: Record<string, unknown>[] = [];
  for (const component of ["header", "body"] as const) {
    const mine = filled.filter((s) => s.component === component);
    if (mine.length === 0) continue;
    out.push({ type: component, parameters: mine.map((s) => parameterFor(s, values[slotKey(s)] ?? "", named)) });
  }
  for (const s of filled.filter((x) => x.component === "button")) {
    out.push({
      type: "button",
      sub_type: s.subType,
      index: String(s.index),
      parameters: [parameterFor(s, values[slotKey(s)] ?? "", named)],
    });
  }
  return out;
}

export type RenderedTemplate = { header: string | null; body: string; footer: string | null; buttons: string[] };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" ? v : "");

/** Replaces {{n}} / {{name}} by the value, or leaves the placeholder visible while it is empty. */
function substitute(template: string, value: (variable: string) => string | undefined): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, v: string) => {
    const filled = value(v)?.trim();
    return filled ? filled : whole;
  });
}

/** The message as the recipient would read it with these values (unfilled variables stay {{n}}). */
export function renderTemplate(templateComponents: unknown, values: FilledValues): RenderedTemplate {
  const { slots } = templateParameters(templateComponents);
  const valueIn = (component: "header" | "body") => (variable: string) => {
    const slot = slots.find((s) => s.component === component && s.variable === variable);
    return slot ? values[slotKey(slot)] : undefined;
  };
  const rendered: RenderedTemplate = { header: null, body: "", footer: null, buttons: [] };
  const list = Array.isArray(templateComponents) ? templateComponents.filter(isObject) : [];
  for (const c of list) {
    const type = text(c.type).toLowerCase();
    if (type === "header") {
      const format = text(c.format).toLowerCase() || "text";
      rendered.header = format === "text" ? substitute(text(c.text), valueIn("header")) : `[${format}]`;
    } else if (type === "body") rendered.body = substitute(text(c.text), valueIn("body"));
    else if (type === "footer") rendered.footer = text(c.text);
    else if (type === "buttons" && Array.isArray(c.buttons)) {
      rendered.buttons = c.buttons
        .filter(isObject)
        .map((b) => text(b.text) || (text(b.type).toLowerCase() === "copy_code" ? "Copy code" : text(b.type)));
    }
  }
  return rendered;
}

// How the simulator reviews a created template (docs/templates.md "Review"): the rules the
// provider states for a template's text and that its review refuses most often, checked the
// same way every time so that a test (or a customer trying the dashboard) can get either
// verdict on purpose. The verdict reaches the service through the provider's
// message_template_status_update callback, its reason in `reason` and `rejection_info`.
import { variablesOf } from "./template-parameters";

export type ReviewVerdict = { status: "APPROVED" } | { status: "REJECTED"; reason: "INVALID_FORMAT"; detail: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The body's examples: one list of values for positional variables, or the named ones. */
function exampleCount(example: unknown, named: boolean): number {
  if (!isObject(example)) return 0;
  if (named) return Array.isArray(example.body_text_named_params) ? example.body_text_named_params.length : 0;
  const first = Array.isArray(example.body_text) ? example.body_text[0] : undefined;
  return Array.isArray(first) ? first.filter((v) => typeof v === "string" && v.trim() !== "").length : 0;
}

const rejected = (detail: string): ReviewVerdict => ({ status: "REJECTED", reason: "INVALID_FORMAT", detail });

/** The verdict on a template's components (the provider's creation shape). */
export function reviewTemplate(components: unknown[]): ReviewVerdict {
  const body = components.filter(isObject).find((c) => String(c.type).toUpperCase() === "BODY");
  const text = typeof body?.text === "string" ? body.text.trim() : "";
  if (!text) return rejected("The template has no body text.");
  const written = [...text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1] ?? "");
  if (written.length === 0) return { status: "APPROVED" };
  const { names, named } = variablesOf(text);
  if (!named && new Set(written).size !== names.length) {
    return rejected(`Variables must be numbered in order without gaps ({{1}} to {{${names.length}}}).`);
  }
  if (/^\{\{[^}]*\}\}/.test(text) || /\{\{[^}]*\}\}[.!?]?$/.test(text)) {
    return rejected("The body may not start or end with a variable: put text before the first and after the last.");
  }
  if (exampleCount(body?.example, named) < names.length) {
    return rejected("Every variable in the body needs a sample value (example).");
  }
  return { status: "APPROVED" };
}

// Server actions return a plain result rendered from errorAnswer (lib/core/error-answer.ts):
// the message, the wire code, and the field errors keyed by the form field they are about.
import { unstable_rethrow } from "next/navigation";
import { errorAnswer, type FieldError } from "@/lib/core/error-answer";
import { log } from "@/lib/core/log";
import { findInputProblem } from "@/lib/core/storable-input";

export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | { ok: false; message: string; code: string; fields?: Record<string, string> };

/**
 * Dashboard forms are flat: an error about "body.webhook.endpointUrl" (the API's name for it),
 * "webhook.endpointUrl" or "events.2" belongs to the form field "endpointUrl" or "events",
 * the last named segment of its path. The first error per field wins.
 */
export function formFields(fields: FieldError[]): Record<string, string> | undefined {
  const byName: Record<string, string> = {};
  for (const { path, message } of fields) {
    const name = path
      .split(".")
      .filter((s) => s !== "" && !/^\d+$/.test(s))
      .at(-1);
    if (name) byName[name] ??= message;
  }
  return Object.keys(byName).length > 0 ? byName : undefined;
}

/**
 * For a form that keys its errors by path (the rule editor's `actions.1.labels.0`): an error
 * about "body.rule.actions.1.labels.0" or "rule.actions.1.labels.0" belongs to the path after
 * `below` ("rule"); a path without it is kept whole. The first error per path wins.
 */
export function pathFields(fields: FieldError[], below: string): Record<string, string> | undefined {
  const byPath: Record<string, string> = {};
  for (const { path, message } of fields) {
    const parts = path.split(".").filter((s) => s !== "");
    const at = parts.indexOf(below);
    const key = (at >= 0 ? parts.slice(at + 1) : parts).join(".");
    if (key) byPath[key] ??= message;
  }
  return Object.keys(byPath).length > 0 ? byPath : undefined;
}

/** A refusal whose messages name fields by their API names ("endpointUrl"), said with the form's labels. */
export function withLabels<T>(result: ActionResult<T>, labels: Record<string, string>): ActionResult<T> {
  if (result.ok) return result;
  const say = (text: string) =>
    Object.entries(labels).reduce((t, [name, label]) => t.replace(new RegExp(`\\b${name}\\b`, "g"), label), text);
  const fields = result.fields
    ? Object.fromEntries(Object.entries(result.fields).map(([k, v]) => [k, say(v)]))
    : undefined;
  return { ...result, message: say(result.message), ...(fields ? { fields } : {}) };
}

/**
 * Runs a server action's work; `input` (the action's raw arguments) is first checked for
 * text the database cannot store and nesting, as the public API checks its bodies.
 */
export async function runAction<T>(
  work: () => Promise<T>,
  input?: unknown,
  fieldsOf: (fields: FieldError[]) => Record<string, string> | undefined = formFields,
): Promise<ActionResult<T>> {
  const problem = input === undefined ? undefined : findInputProblem(input, "");
  if (problem) {
    const field = problem.path || "input";
    return {
      ok: false,
      message: `${field}: ${problem.message}`,
      code: "VALIDATION_FAILED",
      fields: fieldsOf([{ path: field, message: problem.message }]),
    };
  }
  try {
    return { ok: true, data: await work() };
  } catch (caught) {
    // redirect() and notFound() are Next's control flow, not errors.
    unstable_rethrow(caught);
    const error = errorAnswer(caught);
    if (error.unexpected) log.error({ err: caught }, "server action failed");
    return { ok: false, message: error.message, code: error.code, fields: fieldsOf(error.fields) };
  }
}

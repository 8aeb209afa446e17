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
export async function runAction<T>(work: () => Promise<T>, input?: unknown): Promise<ActionResult<T>> {
  const problem = input === undefined ? undefined : findInputProblem(input, "");
  if (problem) {
    const field = problem.path || "input";
    return {
      ok: false,
      message: `${field}: ${problem.message}`,
      code: "VALIDATION_FAILED",
      fields: formFields([{ path: field, message: problem.message }]),
    };
  }
  try {
    return { ok: true, data: await work() };
  } catch (caught) {
    // redirect() and notFound() are Next's control flow, not errors.
    unstable_rethrow(caught);
    const error = errorAnswer(caught);
    if (error.unexpected) log.error({ err: caught }, "server action failed");
    return { ok: false, message: error.message, code: error.code, fields: formFields(error.fields) };
  }
}

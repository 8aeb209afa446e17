// Server actions return a plain result: contract errors become a message, zod issues field errors.
import { ZodError } from "zod";
import { ApiError, inputErrorFrom } from "@/lib/core/errors";
import { findInputProblem } from "@/lib/core/storable-input";

export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | { ok: false; message: string; fields?: Record<string, string> };

/**
 * Runs a server action's work; `input` (the action's raw arguments) is first checked for
 * what the database cannot store and nesting, as the public API checks its bodies.
 */
export async function runAction<T>(work: () => Promise<T>, input?: unknown): Promise<ActionResult<T>> {
  const problem = input === undefined ? undefined : findInputProblem(input, "");
  if (problem) {
    const field = problem.path || "input";
    return { ok: false, message: `${field}: ${problem.message}`, fields: { [field]: problem.message } };
  }
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    const refused = inputErrorFrom(error);
    if (refused) return { ok: false, message: refused.message };
    if (error instanceof ApiError) {
      const fields = error.details.fields as Record<string, string> | undefined;
      return { ok: false, message: error.message, fields: fields && typeof fields === "object" ? fields : undefined };
    }
    if (error instanceof ZodError) {
      const fields: Record<string, string> = {};
      for (const issue of error.issues) fields[issue.path.join(".")] ??= issue.message;
      return { ok: false, message: error.issues[0]?.message ?? "Check the form", fields };
    }
    throw error;
  }
}

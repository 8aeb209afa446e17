// Input the database can store, checked where input enters (the API router, the dashboard
// handlers and server actions) so that a bad field is named in a VALIDATION_FAILED instead
// of failing deep in a write: PostgreSQL text and jsonb hold neither U+0000 nor an unpaired
// UTF-16 surrogate (JSON's "\ud800" parses to one; it has no UTF-8 form). Nesting is capped
// too: JSON.parse accepts any depth, but every recursive consumer after it (zod,
// JSON.stringify, the driver) would overflow the stack.
import { ApiError } from "./errors";

/** Deepest accepted nesting of objects and arrays in one input (no contract body nests beyond ~5). */
export const MAX_INPUT_DEPTH = 64;

export type InputProblem = { path: string; message: string };

// ES2024 (Node 20+); the project's lib setting is ES2023.
type WellFormed = string & { isWellFormed(): boolean };

/** Why a string cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (U+0000), which no field accepts";
  if (!(text as WellFormed).isWellFormed())
    return "contains an unpaired UTF-16 surrogate (e.g. \\ud800), which is not valid text";
  return undefined;
}

export type InspectOptions = {
  maxDepth?: number;
  /** Paths (as joined, e.g. "body.contacts") whose contents are checked by the handler itself. */
  skipTextUnder?: readonly string[];
};

/**
 * The first problem in a parsed input (depth beyond the cap, a key or string that cannot be
 * stored), with its path from `root` joined by dots ("body.webhook.name", "body.contacts.3";
 * root "" gives bare field names, as forms key their errors).
 * Iterative: a hostile input cannot exhaust the stack here.
 */
export function findInputProblem(value: unknown, root: string, options: InspectOptions = {}): InputProblem | undefined {
  const maxDepth = options.maxDepth ?? MAX_INPUT_DEPTH;
  const skip = new Set(options.skipTextUnder ?? []);
  const stack: { value: unknown; path: string; depth: number; textChecked: boolean }[] = [
    { value, path: root, depth: 0, textChecked: !skip.has(root) },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value: v, path, depth, textChecked } = item;
    if (typeof v === "string") {
      const why = textChecked ? unstorableText(v) : undefined;
      if (why) return { path, message: why };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= maxDepth) return { path, message: `nested deeper than ${maxDepth} levels` };
    const entries = Array.isArray(v) ? v.map((e, i) => [String(i), e] as const) : Object.entries(v);
    // Pushed in reverse so the first field is reported first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as readonly [string, unknown];
      const childPath = path ? `${path}.${key}` : key;
      const why = textChecked ? unstorableText(key) : undefined;
      if (why) return { path: childPath, message: `its key ${why}` };
      stack.push({ value: child, path: childPath, depth: depth + 1, textChecked: textChecked && !skip.has(childPath) });
    }
  }
  return undefined;
}

/** The contract error for a problem: VALIDATION_FAILED naming the field in details.fields. */
export const inputProblemError = (problem: InputProblem) =>
  new ApiError("VALIDATION_FAILED", `${problem.path}: ${problem.message}`, { fields: [problem] });

/** Throws VALIDATION_FAILED for the first problem in `value`, if any. */
export function assertStorableInput(value: unknown, root: string, options?: InspectOptions): void {
  const problem = findInputProblem(value, root, options);
  if (problem) throw inputProblemError(problem);
}

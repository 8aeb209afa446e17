// Server actions return a plain result: contract errors become a message, zod issues field errors.
import { ZodError } from "zod";
import { ApiError } from "@/lib/core/errors";

export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | { ok: false; message: string; fields?: Record<string, string> };

export async function runAction<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
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

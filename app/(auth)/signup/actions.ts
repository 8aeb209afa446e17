"use server";
import { SignupInput } from "@/lib/auth/schemas";
import { ApiError } from "@/lib/core/errors";
import { findInputProblem } from "@/lib/core/storable-input";
import { signUp } from "@/lib/customers/signup";

export type SignupResult = { ok: true } | { ok: false; message: string; fields?: Record<string, string> };

export async function signUpAction(raw: Record<string, string>): Promise<SignupResult> {
  // Text the database cannot store (NUL, lone surrogates) is named, as on every input.
  const unstorable = findInputProblem(raw, "");
  if (unstorable)
    return { ok: false, message: "Check the highlighted fields.", fields: { [unstorable.path]: unstorable.message } };
  const parsed = SignupInput.safeParse(raw);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return { ok: false, message: "Check the highlighted fields.", fields };
  }
  try {
    await signUp(parsed.data);
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.message };
    throw error;
  }
}

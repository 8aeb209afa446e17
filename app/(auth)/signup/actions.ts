"use server";
import { headers } from "next/headers";
import { SignupInput } from "@/lib/auth/schemas";
import { ApiError } from "@/lib/core/errors";
import { signUp } from "@/lib/customers/signup";
import { clientIpFrom } from "@/lib/http/client-ip";

export type SignupResult = { ok: true } | { ok: false; message: string; fields?: Record<string, string> };

export async function signUpAction(raw: Record<string, string>): Promise<SignupResult> {
  const parsed = SignupInput.safeParse(raw);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return { ok: false, message: "Check the highlighted fields.", fields };
  }
  try {
    // The front server (npm start) sets X-Forwarded-For itself; lib/http/client-ip.ts says
    // which entry to believe.
    const ip = clientIpFrom((await headers()).get("x-forwarded-for"), undefined);
    await signUp(parsed.data, ip);
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.message };
    throw error;
  }
}

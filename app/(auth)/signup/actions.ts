"use server";
import { SignupInput } from "@/lib/auth/schemas";
import { signUp } from "@/lib/customers/signup";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";

export async function signUpAction(raw: Record<string, string>): Promise<ActionResult> {
  return runAction(async () => {
    await signUp(SignupInput.parse(raw));
    return undefined;
  });
}

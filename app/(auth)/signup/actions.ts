"use server";
import { headers } from "next/headers";
import { requestClientIp } from "@/lib/core/client-ip";
import { defineAction } from "@/lib/dashboard/define-action";
import { SignupInput } from "@/lib/domains/auth/schemas";
import { SIGNUP_EMAIL_SENT, signUp } from "@/lib/domains/customers/signup";

export const signUpAction = defineAction({
  auth: "public",
  schema: SignupInput,
  // The sign-up limit is per client address (lib/core/client-ip.ts). A new account signs in
  // next; a taken email was emailed instead, and the form says only that an email went out.
  run: async ({ input }) => {
    const outcome = await signUp(input, requestClientIp(await headers()));
    return outcome.status === "created"
      ? { next: "sign_in" as const }
      : { next: "check_email" as const, message: SIGNUP_EMAIL_SENT };
  },
});

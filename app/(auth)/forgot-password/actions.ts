"use server";
// "Forgot password" (docs/security.md "Password reset"): public; the same answer whether or
// not the email has an account (lib/domains/security/passwords.ts), limited per address and email.
import { headers } from "next/headers";
import { defineAction } from "@/lib/dashboard/define-action";
import { requestPasswordReset } from "@/lib/domains/security/passwords";
import { ResetRequestInput } from "@/lib/domains/security/schemas";
import { clientIpFrom } from "@/lib/http/client-ip";

export const requestResetAction = defineAction({
  auth: "public",
  schema: ResetRequestInput,
  run: async ({ input }) =>
    requestPasswordReset(clientIpFrom((await headers()).get("x-forwarded-for"), undefined), input.email),
});

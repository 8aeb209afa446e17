"use server";
// "Forgot password" (docs/security.md "Password reset"): public; the same answer whether or
// not the email has an account (lib/domains/security/passwords.ts), limited per address and email.
import { headers } from "next/headers";
import { requestClientIp } from "@/lib/core/client-ip";
import { defineAction } from "@/lib/dashboard/define-action";
import { requestPasswordReset } from "@/lib/domains/security/passwords";
import { ResetRequestInput } from "@/lib/domains/security/schemas";

export const requestResetAction = defineAction({
  auth: "public",
  schema: ResetRequestInput,
  run: async ({ input }) => requestPasswordReset(requestClientIp(await headers()), input.email),
});

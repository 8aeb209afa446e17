"use server";
// The reset link's "set password": public by design (the link's token is the credential;
// lib/domains/security/passwords.ts checks it, once, within the hour).
import { defineAction } from "@/lib/dashboard/define-action";
import { requestOrigin } from "@/lib/dashboard/request-origin";
import { resetPassword } from "@/lib/domains/security/passwords";
import { ResetPasswordInput } from "@/lib/domains/security/schemas";

export const resetPasswordAction = defineAction({
  auth: "public",
  schema: ResetPasswordInput,
  run: async ({ input }) => resetPassword(input.token, input.password, await requestOrigin()),
});

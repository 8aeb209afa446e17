"use server";
import { headers } from "next/headers";
import { requestClientIp } from "@/lib/core/client-ip";
import { defineAction } from "@/lib/dashboard/define-action";
import { SignupInput } from "@/lib/domains/auth/schemas";
import { signUp } from "@/lib/domains/customers/signup";

export const signUpAction = defineAction({
  auth: "public",
  schema: SignupInput,
  run: async ({ input }) => {
    // The sign-up limit is per client address (lib/core/client-ip.ts).
    await signUp(input, requestClientIp(await headers()));
  },
});

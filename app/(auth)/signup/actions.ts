"use server";
import { headers } from "next/headers";
import { defineAction } from "@/lib/dashboard/define-action";
import { SignupInput } from "@/lib/domains/auth/schemas";
import { signUp } from "@/lib/domains/customers/signup";
import { clientIpFrom } from "@/lib/http/client-ip";

export const signUpAction = defineAction({
  auth: "public",
  schema: SignupInput,
  run: async ({ input }) => {
    // The front server (npm start) sets X-Forwarded-For itself; lib/http/client-ip.ts says
    // which entry to believe.
    await signUp(input, clientIpFrom((await headers()).get("x-forwarded-for"), undefined));
  },
});

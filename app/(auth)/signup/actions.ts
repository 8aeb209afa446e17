"use server";
import { headers } from "next/headers";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { SignupInput } from "@/lib/domains/auth/schemas";
import { signUp } from "@/lib/domains/customers/signup";
import { clientIpFrom } from "@/lib/http/client-ip";

export async function signUpAction(raw: Record<string, string>): Promise<ActionResult> {
  return runAction(async () => {
    const input = SignupInput.parse(raw);
    // The front server (npm start) sets X-Forwarded-For itself; lib/http/client-ip.ts says
    // which entry to believe.
    await signUp(input, clientIpFrom((await headers()).get("x-forwarded-for"), undefined));
    return undefined;
  }, raw);
}

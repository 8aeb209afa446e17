"use server";
// The invitation page's "join": public by design (the link's token is the credential;
// lib/domains/members/invitations.ts checks it, once, within 7 days).
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { acceptInvitation } from "@/lib/domains/members/invitations";
import { InvitationAcceptInput } from "@/lib/domains/members/schemas";

export async function acceptInvitationAction(token: string, raw: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction(async () => {
    const { email } = await acceptInvitation(String(token), InvitationAcceptInput.parse(raw));
    return { email };
  }, raw);
}

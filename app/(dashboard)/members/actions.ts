"use server";
// The members page (docs/members.md): invite, resend, revoke; change a member's role and
// senders; remove. The services check the table and the owner rules themselves.
import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { createInvitation, resendInvitation, revokeInvitation } from "@/lib/domains/members/invitations";
import { InvitationCreateInput, MemberChangeInput } from "@/lib/domains/members/schemas";
import { changeMember, removeMember } from "@/lib/domains/members/service";

export async function inviteMemberAction(raw: unknown): Promise<ActionResult<{ email: string }>> {
  const p = await requirePermission("members");
  const result = await runAction(async () => {
    const invitation = await createInvitation(p, InvitationCreateInput.parse(raw));
    return { email: invitation.email };
  }, raw);
  if (result.ok) revalidatePath("/members");
  return result;
}

export async function resendInvitationAction(id: string): Promise<ActionResult> {
  const p = await requirePermission("members");
  const result = await runAction(
    async () => {
      await resendInvitation(p, String(id));
      return undefined;
    },
    { id },
  );
  if (result.ok) revalidatePath("/members");
  return result;
}

export async function revokeInvitationAction(id: string): Promise<ActionResult> {
  const p = await requirePermission("members");
  const result = await runAction(
    async () => {
      await revokeInvitation(p, String(id));
      return undefined;
    },
    { id },
  );
  if (result.ok) revalidatePath("/members");
  return result;
}

export async function changeMemberAction(userId: string, raw: unknown): Promise<ActionResult> {
  const p = await requirePermission("members");
  const result = await runAction(async () => {
    await changeMember(p, String(userId), MemberChangeInput.parse(raw));
    return undefined;
  }, raw);
  if (result.ok) revalidatePath("/members");
  return result;
}

export async function removeMemberAction(userId: string): Promise<ActionResult> {
  const p = await requirePermission("members");
  const result = await runAction(
    async () => {
      await removeMember(p, String(userId));
      return undefined;
    },
    { userId },
  );
  if (result.ok) revalidatePath("/members");
  return result;
}

"use server";
// The members page (docs/members.md): invite, resend, revoke; change a member's role and
// senders; remove; end a member's sessions; require two-factor (owners, docs/security.md). The services check the table and the owner rules themselves too.
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { createInvitation, resendInvitation, revokeInvitation } from "@/lib/domains/members/invitations";
import { InvitationCreateInput, MemberChangeInput } from "@/lib/domains/members/schemas";
import { changeMember, removeMember } from "@/lib/domains/members/service";
import { RequireTwoFactorInput } from "@/lib/domains/security/schemas";
import { endMemberSessions } from "@/lib/domains/security/sessions";
import { setRequireTwoFactor } from "@/lib/domains/security/two-factor";

export const inviteMemberAction = defineAction({
  permission: "members",
  schema: InvitationCreateInput,
  run: async ({ principal, input }) => ({ email: (await createInvitation(principal, input)).email }),
  revalidate: "/members",
});

export const resendInvitationAction = defineAction({
  permission: "members",
  schema: z.object({ invitationId: RecordId }),
  run: async ({ principal, input }) => {
    await resendInvitation(principal, input.invitationId);
  },
  revalidate: "/members",
});

export const revokeInvitationAction = defineAction({
  permission: "members",
  schema: z.object({ invitationId: RecordId }),
  run: async ({ principal, input }) => {
    await revokeInvitation(principal, input.invitationId);
  },
  revalidate: "/members",
});

export const changeMemberAction = defineAction({
  permission: "members",
  schema: MemberChangeInput.extend({ userId: RecordId }),
  run: async ({ principal, input: { userId, ...change } }) => {
    await changeMember(principal, userId, change);
  },
  revalidate: "/members",
});

export const removeMemberAction = defineAction({
  permission: "members",
  schema: z.object({ userId: RecordId }),
  run: async ({ principal, input }) => {
    await removeMember(principal, input.userId);
  },
  revalidate: "/members",
});

export const endMemberSessionsAction = defineAction({
  permission: "members",
  schema: z.object({ userId: RecordId }),
  run: async ({ principal, input }) => ({ ended: await endMemberSessions(principal, input.userId) }),
  revalidate: "/members",
});

export const requireTwoFactorAction = defineAction({
  permission: "members",
  schema: RequireTwoFactorInput,
  run: async ({ principal, input }) => setRequireTwoFactor(principal, input.required),
  revalidate: "/members",
});

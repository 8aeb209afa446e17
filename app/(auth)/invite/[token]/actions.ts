"use server";
// The invitation page's "join": public by design (the link's token is the credential;
// lib/domains/members/invitations.ts checks it, once, within 7 days).
import { z } from "zod";
import { defineAction } from "@/lib/dashboard/define-action";
import { requestOrigin } from "@/lib/dashboard/request-origin";
import { acceptInvitation } from "@/lib/domains/members/invitations";
import { InvitationAcceptInput } from "@/lib/domains/members/schemas";

export const acceptInvitationAction = defineAction({
  auth: "public",
  schema: InvitationAcceptInput.extend({ token: z.string().max(200) }),
  run: async ({ input: { token, ...details } }) => ({
    email: (await acceptInvitation(token, details, await requestOrigin())).email,
  }),
});

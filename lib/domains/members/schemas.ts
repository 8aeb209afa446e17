// Member and invitation input (docs/members.md): one schema per input, shared by the
// members page's actions, the invitation page and the operator CLI.
import { z } from "zod";
import { ROLES } from "@/lib/domains/auth/permissions";
import { E164, normalizePhone } from "@/lib/domains/senders/phone";

export const RoleSchema = z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` });

const senderPhone = z
  .string()
  .transform(normalizePhone)
  .refine((v) => E164.test(v), "must be a sender's number in E.164, like +15550001234");

/**
 * The senders an agent is limited to, as phone numbers (a form's checkboxes, the CLI's
 * comma-separated list); none: every sender. Ignored for the other roles.
 */
export const MemberSendersSchema = z
  .union([z.array(senderPhone), senderPhone.transform((v) => [v])])
  .transform((phones) => [...new Set(phones)])
  .pipe(z.array(z.string()).max(200, "at most 200 senders"))
  .default([]);

export const MemberEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("Enter a valid email address").max(254, "must be at most 254 characters"));

export const MemberChangeInput = z.object({ role: RoleSchema, senders: MemberSendersSchema });
export type MemberChangeValue = z.infer<typeof MemberChangeInput>;

export const InvitationCreateInput = z.object({
  email: MemberEmail,
  role: RoleSchema,
  senders: MemberSendersSchema,
});
export type InvitationCreateValue = z.infer<typeof InvitationCreateInput>;

/** The invitee's own details when joining (the password rule of sign-up). */
export const InvitationAcceptInput = z.object({
  name: z.string().trim().max(120, "must be at most 120 characters").optional(),
  password: z.string().min(10, "Use at least 10 characters").max(200, "must be at most 200 characters"),
});
export type InvitationAcceptValue = z.infer<typeof InvitationAcceptInput>;

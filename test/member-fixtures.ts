// Members for tests: a real member row (as the operator CLI or an accepted invitation
// makes it) and the session ids the dashboard's JWT would carry for it.
import { randomBytes } from "node:crypto";
import type { Role } from "@/lib/domains/auth/permissions";
import type { Member, MemberPrincipal, Plan } from "@/lib/domains/auth/principal";
import { addMember } from "@/lib/domains/members/service";
import { openSession } from "@/lib/domains/security/sessions";

export type TestMember = {
  userId: string;
  email: string;
  password: string;
  session: { userId: string; customerId: string; sessionId: string };
};

/** The ids a dashboard JWT carries after `userId` signs in (a new server-side session). */
export async function signedInSession(userId: string, customerId: string, userAgent: string | null = null) {
  const sessionId = await openSession({ userId, customerId, ip: "127.0.0.1", userAgent });
  return { userId, customerId, sessionId };
}

export async function createMemberOf(customerId: string, role: Role, senders: string[] = []): Promise<TestMember> {
  const email = `${role}-${randomBytes(5).toString("hex")}@example.test`;
  const password = "a-long-password";
  const user = await addMember({ customerId, email, password, role, senders });
  return { userId: user.id, email, password, session: await signedInSession(user.id, customerId) };
}

/** The link of the newest email to `to` as the invitee would read it (the outbox, as `mail:list` shows it). */
export async function latestLinkTo(to: string): Promise<string> {
  const { listMail } = await import("@/lib/domains/mail/outbox");
  const { linksIn, openBody } = await import("@/lib/domains/mail/message");
  const [newest] = await listMail({ limit: 1, to });
  const link = linksIn(openBody(newest?.body ?? "")?.text ?? "")[0];
  if (!link) throw new Error(`no email with a link to ${to}`);
  return link;
}

/** The token of an invitation link (its last path segment). */
export const tokenOf = (link: string) => new URL(link).pathname.split("/").at(-1) ?? "";

/**
 * A member's principal as the dashboard session builds it (lib/domains/security/session-principal.ts),
 * for a service called directly: an owner unless `member` says otherwise. The user need not
 * exist unless the service reads it (give a real one's id and email then).
 */
export function memberPrincipal(customerId: string, member: Partial<Member> = {}, plan: Plan = "pro"): MemberPrincipal {
  const userId = member.userId ?? "user-test";
  return {
    via: "session",
    customerId,
    plan,
    userId,
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId, email: `${userId}@example.test`, name: null, role: "owner", senderIds: null, ...member },
  };
}

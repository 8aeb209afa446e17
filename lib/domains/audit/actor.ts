// Who did it, as the audit log keeps it (docs/security.md "Audit log"): derived from the
// Principal every service already takes, so a service records its actor without knowing
// which adapter called it: its kind (`via`) says who acted, and the router and the
// dashboard session set `origin`.
import type { Member, Principal, RequestOrigin } from "@/lib/domains/auth/principal";

export type AuditActor =
  | { type: "member"; email: string; userId: string }
  | { type: "api_token"; tokenId: string; tokenName: string; tokenPrefix: string }
  | { type: "operator" }
  | { type: "system" };

/** The account, the actor, the IP and the user agent of an entry, from the caller's principal. */
export function auditContext(p: Principal): {
  customerId: string;
  actor: AuditActor;
  ip: string | null;
  userAgent: string | null;
} {
  return {
    customerId: p.customerId,
    actor: actorOf(p),
    ip: p.origin?.ip ?? null,
    userAgent: p.origin?.userAgent ?? null,
  };
}

/**
 * As auditContext, for a member who has no session yet (signing in, resetting a password,
 * accepting an invitation): the member is the actor.
 */
export function memberAuditContext(
  customerId: string,
  member: Pick<Member, "email" | "userId">,
  origin?: RequestOrigin,
): ReturnType<typeof auditContext> {
  return {
    customerId,
    actor: { type: "member", email: member.email, userId: member.userId },
    ip: origin?.ip ?? null,
    userAgent: origin?.userAgent ?? null,
  };
}

function actorOf(p: Principal): AuditActor {
  switch (p.via) {
    case "session":
      return { type: "member", email: p.member.email, userId: p.member.userId };
    case "token":
      return { type: "api_token", tokenId: p.tokenId, tokenName: p.token.name, tokenPrefix: p.token.prefix };
    case "operator":
      return { type: "operator" };
    case "system":
      return { type: "system" };
  }
}

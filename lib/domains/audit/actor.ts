// Who did it, as the audit log keeps it (docs/security.md "Audit log"): derived from the
// Principal every service already takes, so a service records its actor without knowing
// which adapter called it. The router sets `token` and `origin`, the dashboard session
// `member` and `origin`, the operator CLI `operator`; a principal with none of them
// (background work) is `system`.
import type { Member, Principal } from "@/lib/domains/auth/principal";

export type AuditActor =
  | { type: "member"; email: string; userId: string }
  | { type: "api_token"; tokenId: string; tokenName: string; tokenPrefix: string }
  | { type: "operator" }
  | { type: "system" };

/** The parts of a principal the audit log reads. */
export type AuditPrincipal = Pick<Principal, "customerId"> &
  Partial<Pick<Principal, "token" | "tokenId" | "operator" | "origin">> & {
    member?: Pick<Member, "email" | "userId">;
  };

/** The account, the actor, the IP and the user agent of an entry, from the caller's principal. */
export function auditContext(p: AuditPrincipal): {
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

function actorOf(p: AuditPrincipal): AuditActor {
  if (p.member) return { type: "member", email: p.member.email, userId: p.member.userId };
  if (p.tokenId && p.token) {
    return { type: "api_token", tokenId: p.tokenId, tokenName: p.token.name, tokenPrefix: p.token.prefix };
  }
  if (p.operator) return { type: "operator" };
  return { type: "system" };
}

/** The principal of the operator CLI acting on one account. */
export const operatorPrincipal = (customerId: string): AuditPrincipal => ({ customerId, operator: true });

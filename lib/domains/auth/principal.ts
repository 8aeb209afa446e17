// Who is asking: an API token or a dashboard session resolve to the same shape, and
// every service takes it first so the tenant scope lives in one place.
import type { Role } from "@/lib/domains/members/permissions";

export type Feature = "billing" | "contactBooks" | "webhooks" | "messaging";
export type Plan = "starter" | "pro";

export const PLAN_FEATURES: Record<Plan, readonly Feature[]> = {
  starter: ["billing", "contactBooks", "messaging"],
  pro: ["billing", "contactBooks", "webhooks", "messaging"],
};

export type Principal = {
  customerId: string;
  plan: Plan;
  via: "token" | "session";
  tokenId?: string;
  userId?: string;
  /** Set for number-scoped tokens: the only sender this principal may act on. */
  scopedSenderId?: string | null;
  /** Set for a dashboard session: the member, loaded on each request (lib/domains/auth/session-principal.ts). */
  member?: Member;
  /** A dashboard session: the UserSession row behind the JWT (docs/security.md "Sessions"). */
  sessionId?: string;
  /**
   * The account requires two-factor sign-in and this member has not set it up: every page,
   * action and handler but the account page refuses until they do (lib/dashboard/guard.ts).
   */
  twoFactorSetupRequired?: boolean;
  /** Set for an API token: its name and visible prefix, which the audit log records as the actor. */
  token?: { name: string; prefix: string };
  /** Set for the operator CLI: the audit log records its changes as `operator` (docs/security.md "Audit log"). */
  operator?: true;
  /**
   * Where the request came from (client IP by lib/core/client-ip.ts's rule, user agent), set by
   * the adapter that built the principal: the router, the dashboard session. The audit log
   * records it; absent for the CLI and background work.
   */
  origin?: RequestOrigin;
};

/** The client address and user agent of a request, as the audit log keeps them. */
export type RequestOrigin = { ip: string | null; userAgent: string | null };

/** A signed-in member as of this request (docs/members.md). */
export type Member = {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  /** The only senders this member may see and act on (an agent limited to some); null: every sender. */
  senderIds: readonly string[] | null;
};

/**
 * The senders a principal may see and act on: a number-scoped token's one sender, a limited
 * member's senders, or null for every sender of the account. Lists, counts, search and
 * sender resolution all narrow to it (lib/domains/senders/service.ts, conversations/list-sql.ts).
 */
export function allowedSenderIds(p: Principal): readonly string[] | null {
  if (p.scopedSenderId) return [p.scopedSenderId];
  return p.member?.senderIds ?? null;
}

/** Whether the principal may see and act on this sender. */
export function senderAllowed(p: Principal, senderId: string): boolean {
  const allowed = allowedSenderIds(p);
  return allowed === null || allowed.includes(senderId);
}

export function hasFeature(p: Principal, feature: Feature): boolean {
  return PLAN_FEATURES[p.plan].includes(feature);
}

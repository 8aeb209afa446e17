// Who is asking: an API token, a member's dashboard session, the operator CLI or the system
// (background work), one tagged union (`via`), each kind with its own fields.
import type { Role, TokenPermissions } from "@/lib/domains/auth/permissions";

export type Feature = "billing" | "contactBooks" | "webhooks" | "messaging";
export type Plan = "starter" | "pro";

export const PLAN_FEATURES: Record<Plan, readonly Feature[]> = {
  starter: ["billing", "contactBooks", "messaging"],
  pro: ["billing", "contactBooks", "webhooks", "messaging"],
};

/** What acts, and for which customer: every service takes it first, so the tenant scope lives in one place. */
export type Principal = TokenPrincipal | MemberPrincipal | OperatorPrincipal | SystemPrincipal;

type Acting = {
  customerId: string;
  /**
   * Where the request came from (client IP by lib/core/client-ip.ts's rule, user agent), set by
   * the adapter that built the principal: the router, the dashboard session. The audit log
   * records it; absent for the CLI and background work.
   */
  origin?: RequestOrigin;
};

// The fields of the other kinds, absent here: a read of `p.member` or `p.scopedSenderId` on any
// principal compiles (undefined where it does not apply) and narrows the union.
type Absent<K extends string> = { [F in K]?: never };
type Specific = "plan" | "tokenId" | "token" | "permissions" | "scopedSenderId" | "member" | "userId" | "sessionId";

/** An API token (lib/domains/tokens/service.ts verifyToken). */
export type TokenPrincipal = Acting & {
  via: "token";
  plan: Plan;
  tokenId: string;
  /** Its name and visible prefix, which the audit log records as the actor. */
  token: { name: string; prefix: string };
  /** A number-scoped token's one sender (the only one it may act on); null for a global token. */
  scopedSenderId: string | null;
  /** What it may do (the router checks each route's permission, docs/tokens.md "Restricted tokens"). */
  permissions: TokenPermissions;
} & Absent<"member" | "userId" | "sessionId" | "twoFactorSetupRequired">;

/** A member signed in to the dashboard, loaded on each request (lib/domains/security/session-principal.ts). */
export type MemberPrincipal = Acting & {
  via: "session";
  plan: Plan;
  userId: string;
  member: Member;
  /** The UserSession row behind the JWT (docs/security.md "Sessions"). */
  sessionId: string;
  scopedSenderId?: null;
  /**
   * The account requires two-factor sign-in and this member has not set it up: every page,
   * action and handler but the account page refuses until they do (lib/dashboard/guard.ts).
   */
  twoFactorSetupRequired?: boolean;
} & Absent<"tokenId" | "token" | "permissions">;

/** The operator CLI acting on one account: the audit log records its changes as `operator` (docs/security.md "Audit log"). */
export type OperatorPrincipal = Acting & { via: "operator" } & Absent<Specific | "twoFactorSetupRequired">;

/**
 * Background work acting for a customer (a chatbot's reply, a broadcast's sends): the audit
 * log records it as `system`. `scopedSenderId` keeps it to one sender, as a number-scoped token.
 */
export type SystemPrincipal = Acting & { via: "system"; scopedSenderId?: string } & Absent<
    Exclude<Specific, "scopedSenderId"> | "twoFactorSetupRequired"
  >;

/** The principal of a worker acting for `customerId`, on `senderId` alone when given. */
export function systemPrincipal(customerId: string, senderId?: string): SystemPrincipal {
  return senderId ? { via: "system", customerId, scopedSenderId: senderId } : { via: "system", customerId };
}

/** The principal of the operator CLI acting on one account. */
export function operatorPrincipal(customerId: string): OperatorPrincipal {
  return { via: "operator", customerId };
}

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

/** Whether the customer's plan includes `feature` (the router's check of a route's feature). */
export function hasFeature(p: TokenPrincipal | MemberPrincipal, feature: Feature): boolean {
  return PLAN_FEATURES[p.plan].includes(feature);
}

// Who is asking: an API token or a dashboard session resolve to the same shape, and
// every service takes it first so the tenant scope lives in one place.
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
};

export function hasFeature(p: Principal, feature: Feature): boolean {
  return PLAN_FEATURES[p.plan].includes(feature);
}

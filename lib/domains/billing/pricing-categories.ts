// The provider's pricing categories, as rate cards and billing records store them. No
// database code here, so input schemas (the operator CLI's) can use it without loading Prisma.

export const PRICING_CATEGORIES = [
  "marketing",
  "marketing_lite",
  "utility",
  "authentication",
  "authentication_international",
  "service",
  "referral_conversion",
] as const;

/** The provider spells some categories with a hyphen; we store underscores, lower-case. */
export function normalizeCategory(category: string): string {
  return category.trim().toLowerCase().replace(/-/g, "_");
}

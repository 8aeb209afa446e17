// Provider pricing facts -> our billing fields.

import type { ProviderStatusT } from "@/lib/domains/provider/callbacks/schemas";
import { normalizeCategory } from "./rate-card";

export type TemplateType = "marketing" | "utility" | "authentication" | "service";

/** marketing, marketing_lite -> marketing; utility; authentication* -> authentication; service, referral_conversion -> service. */
export function templateTypeFor(category: string | null | undefined): TemplateType | null {
  if (!category) return null;
  const c = normalizeCategory(category);
  if (c === "marketing" || c === "marketing_lite") return "marketing";
  if (c === "utility") return "utility";
  if (c.startsWith("authentication")) return "authentication";
  if (c === "service" || c === "referral_conversion") return "service";
  return null;
}

/**
 * Whether the provider charges the message. `billable` is being deprecated: when absent,
 * `type` decides (regular = charged, free_* = free), else the category (service and
 * referral conversions are free, the rest charged).
 */
export function billableFrom(pricing: NonNullable<ProviderStatusT["pricing"]>): boolean {
  if (typeof pricing.billable === "boolean") return pricing.billable;
  const type = pricing.type?.toLowerCase();
  if (type === "regular") return true;
  if (type?.startsWith("free")) return false;
  const t = templateTypeFor(pricing.category);
  if (t === null) return false;
  return t !== "service";
}

export type PricingFields = {
  billable: boolean;
  pricingModel: string | null;
  pricingCategory: string | null;
  templateType: TemplateType | null;
  pricingType: string | null;
};

export function pricingFields(pricing: NonNullable<ProviderStatusT["pricing"]>): PricingFields {
  const billable = billableFrom(pricing);
  const category = pricing.category ? normalizeCategory(pricing.category) : null;
  return {
    billable,
    pricingModel: pricing.pricing_model ?? null,
    pricingCategory: category,
    templateType: templateTypeFor(category),
    pricingType: pricing.type ?? null,
  };
}

// Every filter of GET /billing/messages (docs/api/billing.md) as a control. A GET form: submitting writes the URL, so a
// copied link reopens the same view. Paging restarts at 1; the sort is kept. Status and pricing type are the lists
// the view accepts (lib/domains/billing/schemas.ts BillingViewQuery): a refused value is shown under its field.
import { DateRangeFilter, FilterActions, SelectFilter, TextFilter } from "@/components/dashboard/filter-fields";
import type { ViewRefusal } from "@/lib/dashboard/billing-view";
import { BILLABLE_VALUES, BILLING_STATUSES, PRICING_TYPES, TEMPLATE_TYPES } from "@/lib/domains/billing/schemas";
import { RECORDED_SEND_ROUTES } from "@/lib/domains/messages/send-routes";

const SELECT_FILTERS = [
  { name: "status", label: "Status", options: BILLING_STATUSES },
  { name: "templateType", label: "Template type", options: TEMPLATE_TYPES },
  { name: "billable", label: "Billable", options: BILLABLE_VALUES },
  { name: "pricingType", label: "Pricing type", options: PRICING_TYPES },
  {
    name: "sendRoute",
    label: "Sent through",
    options: RECORDED_SEND_ROUTES,
    optionLabels: { external: "sent outside Switchboard" },
  },
] as const;

const TEXT_FILTERS = [
  { name: "phoneNumberId", label: "Phone number id", placeholder: "" },
  { name: "messageId", label: "Message id", placeholder: "" },
  { name: "recipient", label: "Recipient", placeholder: "+15550001111" },
  { name: "conversationId", label: "Conversation id", placeholder: "" },
] as const;

const LABELS: Record<string, string> = {
  dateFrom: "From (UTC day)",
  dateTo: "To (UTC day)",
  ...Object.fromEntries([...SELECT_FILTERS, ...TEXT_FILTERS].map((f) => [f.name, f.label])),
};

/** A filter's label as the form shows it ("pricingType" is "Pricing type"). */
export const filterLabel = (name: string) => LABELS[name] ?? name;

export function BillingFiltersForm({
  params,
  refusal = null,
}: {
  params: Record<string, string>;
  refusal?: ViewRefusal | null;
}) {
  const keep = ["sender", "sortBy", "sortOrder", "limit"].filter((k) => params[k]);
  const field = { idPrefix: "f", params };
  const errorOf = (name: string) => (refusal?.field === name ? refusal.message : undefined);
  return (
    <form
      method="get"
      action="/billing"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
      aria-label="Billing filters"
    >
      {keep.map((k) => (
        <input key={k} type="hidden" name={k} value={params[k]} />
      ))}
      <DateRangeFilter {...field} errorOf={errorOf} />
      {SELECT_FILTERS.map((f) => (
        <SelectFilter key={f.name} {...field} {...f} error={errorOf(f.name)} />
      ))}
      {TEXT_FILTERS.map((f) => (
        <TextFilter key={f.name} {...field} {...f} error={errorOf(f.name)} />
      ))}
      <FilterActions
        className="sm:col-span-2 lg:col-span-4"
        resetHref={params.sender ? `/billing?sender=${encodeURIComponent(params.sender)}` : "/billing"}
      />
    </form>
  );
}

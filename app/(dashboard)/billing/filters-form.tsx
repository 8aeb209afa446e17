// Every filter of GET /billing/messages (docs/api/billing.md) as a control. A GET form: submitting writes the URL, so a
// copied link reopens the same view. Paging restarts at 1; the sort is kept.
import { DateRangeFilter, FilterActions, SelectFilter, TextFilter } from "@/components/dashboard/filter-fields";
import { BILLABLE_VALUES, TEMPLATE_TYPES } from "@/lib/domains/billing/schemas";

const TEXT_FILTERS = [
  { name: "status", label: "Status", placeholder: "delivered" },
  { name: "pricingType", label: "Pricing type", placeholder: "regular" },
  { name: "phoneNumberId", label: "Phone number id", placeholder: "" },
  { name: "messageId", label: "Message id", placeholder: "" },
  { name: "recipient", label: "Recipient", placeholder: "+15550001111" },
  { name: "conversationId", label: "Conversation id", placeholder: "" },
] as const;

export function BillingFiltersForm({ params }: { params: Record<string, string> }) {
  const keep = ["sender", "sortBy", "sortOrder", "limit"].filter((k) => params[k]);
  const field = { idPrefix: "f", params };
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
      <DateRangeFilter {...field} />
      <SelectFilter {...field} name="templateType" label="Template type" options={TEMPLATE_TYPES} />
      <SelectFilter {...field} name="billable" label="Billable" options={BILLABLE_VALUES} />
      {TEXT_FILTERS.map((f) => (
        <TextFilter key={f.name} {...field} {...f} />
      ))}
      <FilterActions
        className="sm:col-span-2 lg:col-span-4"
        resetHref={params.sender ? `/billing?sender=${encodeURIComponent(params.sender)}` : "/billing"}
      />
    </form>
  );
}

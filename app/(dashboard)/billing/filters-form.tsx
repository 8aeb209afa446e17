// Every filter of spec 4.1 as a control. A GET form: submitting writes the URL, so a
// copied link reopens the same view. Paging restarts at 1; the sort is kept.
import Link from "next/link";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { BILLABLE_VALUES, TEMPLATE_TYPES } from "@/lib/billing/schemas";

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
      <div>
        <label htmlFor="f-dateFrom" className={label}>
          From (UTC day)
        </label>
        <input id="f-dateFrom" name="dateFrom" type="date" defaultValue={params.dateFrom ?? ""} className={input} />
      </div>
      <div>
        <label htmlFor="f-dateTo" className={label}>
          To (UTC day)
        </label>
        <input id="f-dateTo" name="dateTo" type="date" defaultValue={params.dateTo ?? ""} className={input} />
      </div>
      <div>
        <label htmlFor="f-templateType" className={label}>
          Template type
        </label>
        <select id="f-templateType" name="templateType" defaultValue={params.templateType ?? ""} className={input}>
          <option value="">Any</option>
          {TEMPLATE_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="f-billable" className={label}>
          Billable
        </label>
        <select id="f-billable" name="billable" defaultValue={params.billable ?? ""} className={input}>
          <option value="">Any</option>
          {BILLABLE_VALUES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      {TEXT_FILTERS.map((f) => (
        <div key={f.name}>
          <label htmlFor={`f-${f.name}`} className={label}>
            {f.label}
          </label>
          <input
            id={`f-${f.name}`}
            name={f.name}
            defaultValue={params[f.name] ?? ""}
            placeholder={f.placeholder}
            className={input}
          />
        </div>
      ))}
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
        <button type="submit" className={button}>
          Apply filters
        </button>
        <Link
          href={params.sender ? `/billing?sender=${encodeURIComponent(params.sender)}` : "/billing"}
          className={buttonSecondary}
        >
          Reset
        </Link>
      </div>
    </form>
  );
}

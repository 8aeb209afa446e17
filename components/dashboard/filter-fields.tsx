// The controls of the dashboard's GET filter forms (billing records, ledger): submitting
// writes the URL, so a copied link reopens the same view. Each control reads its value
// from the page's search parameters; `idPrefix` keeps two forms' ids apart.
import Link from "next/link";
import type { ReactNode } from "react";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";

type Field = { idPrefix: string; name: string; label: string; params: Record<string, string> };

function Labelled({ id, text, children }: { id: string; text: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      {children}
    </div>
  );
}

/** A free-text filter (type "date": a whole UTC day). */
export function TextFilter({
  idPrefix,
  name,
  label: text,
  params,
  placeholder,
  type,
}: Field & { placeholder?: string; type?: "date" }) {
  const id = `${idPrefix}-${name}`;
  return (
    <Labelled id={id} text={text}>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={params[name] ?? ""}
        placeholder={placeholder}
        className={input}
      />
    </Labelled>
  );
}

/** A filter over a closed list of values; "Any" is no filter. */
export function SelectFilter({ idPrefix, name, label: text, params, options }: Field & { options: readonly string[] }) {
  const id = `${idPrefix}-${name}`;
  return (
    <Labelled id={id} text={text}>
      <select id={id} name={name} defaultValue={params[name] ?? ""} className={input}>
        <option value="">Any</option>
        {options.map((o) => (
          // Without a value attribute an option's value is its text.
          <option key={o}>{o}</option>
        ))}
      </select>
    </Labelled>
  );
}

/** dateFrom and dateTo: whole UTC days, inclusive. */
export function DateRangeFilter(field: Pick<Field, "idPrefix" | "params">) {
  return (
    <>
      <TextFilter {...field} type="date" name="dateFrom" label="From (UTC day)" />
      <TextFilter {...field} type="date" name="dateTo" label="To (UTC day)" />
    </>
  );
}

/** Apply submits the form; Reset drops every filter (resetHref keeps what must stay, e.g. the sender). */
export function FilterActions({ resetHref, className = "" }: { resetHref: string; className?: string }) {
  return (
    <div className={`flex items-end gap-2 ${className}`}>
      <button type="submit" className={button}>
        Apply filters
      </button>
      <Link href={resetHref} className={buttonSecondary}>
        Reset
      </Link>
    </div>
  );
}

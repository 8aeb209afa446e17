// The controls of the dashboard's GET filter forms (billing records, ledger): submitting
// writes the URL, so a copied link reopens the same view. Each control reads its value
// from the page's search parameters; `idPrefix` keeps two forms' ids apart.

import type { ReactNode } from "react";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { IntentLink } from "@/components/ui/intent-link";

/** `error`: why the page refused this filter's value, shown under it. */
type Field = { idPrefix: string; name: string; label: string; params: Record<string, string>; error?: string };

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
  error,
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
        {...errorProps(id, error)}
      />
      <FieldMessage inputId={id} message={error} />
    </Labelled>
  );
}

/**
 * A filter over a closed list; "Any" is no filter. The URL's value is matched whatever its case
 * ("Delivered" selects delivered); a value not in the list stays selected as it was given, so
 * the form never shows "Any" for a filter the page refused.
 */
export function SelectFilter({
  idPrefix,
  name,
  label: text,
  params,
  options,
  optionLabels,
  error,
}: Field & { options: readonly string[]; optionLabels?: Readonly<Record<string, string>> }) {
  const id = `${idPrefix}-${name}`;
  const given = params[name]?.trim() ?? "";
  const known = options.find((o) => o === given.toLowerCase());
  return (
    <Labelled id={id} text={text}>
      <select id={id} name={name} defaultValue={known ?? given} className={input} {...errorProps(id, error)}>
        <option value="">Any</option>
        {given && !known ? <option value={given}>{given}</option> : null}
        {options.map((o) => (
          // Its value is the filter's value; its text, the label when one is given.
          <option key={o} value={o}>
            {optionLabels?.[o] ?? o}
          </option>
        ))}
      </select>
      <FieldMessage inputId={id} message={error} />
    </Labelled>
  );
}

/** dateFrom and dateTo: whole UTC days, inclusive. */
export function DateRangeFilter({
  errorOf = () => undefined,
  ...field
}: Pick<Field, "idPrefix" | "params"> & { errorOf?: (name: string) => string | undefined }) {
  return (
    <>
      <TextFilter {...field} type="date" name="dateFrom" label="From (UTC day)" error={errorOf("dateFrom")} />
      <TextFilter {...field} type="date" name="dateTo" label="To (UTC day)" error={errorOf("dateTo")} />
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
      <IntentLink href={resetHref} className={buttonSecondary}>
        Reset
      </IntentLink>
    </div>
  );
}

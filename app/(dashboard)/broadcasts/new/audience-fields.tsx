"use client";
import { buttonSecondary, input, label, muted } from "@/components/ui/classes";
// The audience: one or more ACTIVE contact books, narrowed by filters on contact fields (all must
// hold; docs/broadcasts.md "Audience"), and the live count of who would get the message and who
// would be skipped, by reason.
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { FILTER_OPS } from "@/lib/domains/broadcasts/schemas";
import type { FilterDraft, FilterOp } from "./draft";
import type { DraftEstimate } from "./use-draft-estimate";

export type BookChoice = { uid: string; name: string; contacts: number };
export type SegmentChoice = { uid: string; name: string };
export type FieldChoice = { key: string; label: string };

const OP_LABELS: Record<FilterOp, string> = {
  eq: "is",
  neq: "is not",
  contains: "contains",
  exists: "has a value",
  gt: "is greater than",
  lt: "is less than",
};

export const BUILT_IN_FIELDS: FieldChoice[] = [
  { key: "name", label: "Name" },
  { key: "email", label: "Email" },
  { key: "phoneNumber", label: "Phone number" },
];

let seq = 0;
const nextKey = () => {
  seq += 1;
  return seq;
};

type Props = {
  books: BookChoice[];
  fields: FieldChoice[];
  bookUids: string[];
  filters: FilterDraft[];
  onBooks: (uids: string[]) => void;
  onFilters: (filters: FilterDraft[]) => void;
  errors: Record<string, string>;
};

/**
 * A saved segment instead of books and filters (docs/automation.md "Segments"): its rules are
 * taken when the broadcast starts; the count below is its live count for this template.
 */
export function SegmentField({
  segments,
  segmentUid,
  onSegment,
  errors,
}: {
  segments: SegmentChoice[];
  segmentUid: string;
  onSegment: (uid: string) => void;
  errors: Record<string, string>;
}) {
  if (segments.length === 0) return null;
  const error = errors["audience.segmentUid"];
  return (
    <div>
      <label htmlFor="bc-segment" className={label}>
        Saved segment
      </label>
      <select
        id="bc-segment"
        className={input}
        value={segmentUid}
        onChange={(e) => onSegment(e.target.value)}
        {...errorProps("bc-segment", error)}
      >
        <option value="">None: choose contact books below</option>
        {segments.map((s) => (
          <option key={s.uid} value={s.uid}>
            {s.name}
          </option>
        ))}
      </select>
      <FieldMessage inputId="bc-segment" message={error} />
    </div>
  );
}

export function AudienceFields({ books, fields, bookUids, filters, onBooks, onFilters, errors }: Props) {
  const allFields = [...BUILT_IN_FIELDS, ...fields];
  const patch = (i: number, p: Partial<FilterDraft>) =>
    onFilters(filters.map((f, j) => (j === i ? { ...f, ...p } : f)));
  const booksError = errors["audience.contactBookUids"] ?? errors.audience;
  return (
    <div className="space-y-4">
      <fieldset {...(booksError ? { "aria-describedby": "bc-books-error" } : {})}>
        <legend className={label}>Contact books</legend>
        {books.length === 0 ? <p className={muted}>No active contact books yet: add one on Contacts.</p> : null}
        <ul className="mt-1 space-y-1">
          {books.map((b) => (
            <li key={b.uid}>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={bookUids.includes(b.uid)}
                  onChange={(e) =>
                    onBooks(e.target.checked ? [...bookUids, b.uid] : bookUids.filter((u) => u !== b.uid))
                  }
                />
                {b.name} <span className={muted}>({b.contacts.toLocaleString("en-US")} contacts)</span>
              </label>
            </li>
          ))}
        </ul>
        <FieldMessage inputId="bc-books" message={booksError} />
      </fieldset>

      <fieldset className="space-y-2">
        <legend className={label}>Filters (every one must hold)</legend>
        {filters.length === 0 ? <p className={muted}>No filter: every contact of the books.</p> : null}
        <ol className="space-y-2">
          {filters.map((f, i) => {
            const id = `bc-filter-${f.key}`;
            const valueError = errors[`audience.filters.${i}.value`] ?? errors[`audience.filters.${i}`];
            return (
              <li
                key={f.key}
                className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end"
                aria-label={`Filter ${i + 1}`}
              >
                <div>
                  <label htmlFor={`${id}-field`} className={label}>
                    Field
                  </label>
                  <select
                    id={`${id}-field`}
                    className={input}
                    value={f.field}
                    onChange={(e) => patch(i, { field: e.target.value })}
                  >
                    {allFields.map((c) => (
                      <option key={c.key} value={c.key}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor={`${id}-op`} className={label}>
                    Condition
                  </label>
                  <select
                    id={`${id}-op`}
                    className={input}
                    value={f.op}
                    onChange={(e) => patch(i, { op: e.target.value as FilterOp })}
                  >
                    {FILTER_OPS.map((op) => (
                      <option key={op} value={op}>
                        {OP_LABELS[op]}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  {f.op === "exists" ? null : (
                    <>
                      <label htmlFor={`${id}-value`} className={label}>
                        Value
                      </label>
                      <input
                        id={`${id}-value`}
                        className={input}
                        value={f.value}
                        onChange={(e) => patch(i, { value: e.target.value })}
                        {...errorProps(`${id}-value`, valueError)}
                      />
                      <FieldMessage inputId={`${id}-value`} message={valueError} />
                    </>
                  )}
                </div>
                <button
                  type="button"
                  className={buttonSecondary}
                  onClick={() => onFilters(filters.filter((_, j) => j !== i))}
                  aria-label={`Remove filter ${i + 1}`}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          className={buttonSecondary}
          onClick={() =>
            onFilters([...filters, { key: nextKey(), field: allFields[0]?.key ?? "name", op: "eq", value: "" }])
          }
        >
          Add a filter
        </button>
      </fieldset>
    </div>
  );
}

const REASONS: { key: keyof DraftEstimate["skippedByReason"]; label: string }[] = [
  { key: "blacklisted", label: "Blacklisted" },
  { key: "invalid_number", label: "Invalid number" },
  { key: "missing_variable", label: "Missing a variable" },
  { key: "duplicates", label: "Duplicates (messaged once)" },
];

/** Recipients and skipped numbers by reason, as the start would make them; a segment's size too. */
export function AudienceCount({
  estimate,
  updating,
  segment,
}: {
  estimate: DraftEstimate | undefined;
  updating: boolean;
  segment?: string | undefined;
}) {
  if (!estimate) return null;
  const skipped = REASONS.reduce((n, r) => n + estimate.skippedByReason[r.key], 0);
  // The segment's own count (GET /segments/{uid}/count): every unique number, sent to or skipped.
  const numbers = estimate.estimate.recipients + estimate.estimate.skipped;
  return (
    <div className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800" data-testid="audience-count">
      {segment ? (
        <p className="mb-1">
          {segment}: <span data-testid="segment-count">{numbers.toLocaleString("en-US")}</span>{" "}
          {numbers === 1 ? "number" : "numbers"} now
        </p>
      ) : null}
      <p role="status" className="font-medium" aria-busy={updating}>
        <span data-testid="recipient-count">{estimate.estimate.recipients.toLocaleString("en-US")}</span>{" "}
        {estimate.estimate.recipients === 1 ? "recipient" : "recipients"} · {skipped.toLocaleString("en-US")} skipped
        {updating ? <span className={muted}> (updating…)</span> : null}
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        {REASONS.map((r) => (
          <div key={r.key}>
            <dt className={muted}>{r.label}</dt>
            <dd data-testid={`skipped-${r.key}`}>{estimate.skippedByReason[r.key].toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

"use client";
// The segment form (docs/automation.md "Segments"): a name and the rules (contact books and
// filters as a broadcast's audience, the labels the contact carries, a last inbound message
// within a duration, opted in), with the live count of the rules as written. The form checks
// them with the API's own schema (SegmentCreateBody) before it counts or saves; the action
// and the service check them again (books and labels the account's own).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { FormAlert } from "@/components/ui/form-alert";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import { SegmentCountBody, SegmentCreateBody, type SegmentRules } from "@/lib/domains/broadcasts/segment-schemas";
import { AudienceFields, type BookChoice, type FieldChoice } from "../new/audience-fields";
import type { FilterDraft, FilterOp } from "../new/draft";
import { useDebounced } from "../new/use-draft-estimate";
import { createSegmentAction, updateSegmentAction } from "./actions";

/** The choices of "wrote within"; a duration saved through the API that is none of them is offered too. */
const WITHIN: [string, string][] = [
  ["", "any time (no condition)"],
  ["PT24H", "the last 24 hours"],
  ["P7D", "the last 7 days"],
  ["P30D", "the last 30 days"],
  ["P90D", "the last 90 days"],
];

type Props = {
  books: BookChoice[];
  fields: FieldChoice[];
  labels: string[];
  segment?: { uid: string; name: string; rules: SegmentRules };
};

let seq = 0;
const filterDraft = (f: SegmentRules["filters"][number]): FilterDraft => {
  seq += 1;
  return { key: seq, field: f.field, op: f.op as FilterOp, value: f.value === undefined ? "" : String(f.value) };
};

/** The schema's and the server's errors by path below `segment` ("rules.filters.0.value"). */
function errorsBelowSegment(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    out[(path[0] === "segment" ? path.slice(1) : path).join(".")] ??= issue.message;
  }
  return out;
}

async function fetchCount(body: string): Promise<number> {
  return (await dashboardApi.segmentCount(body)).count;
}

export function SegmentForm({ books, fields, labels, segment }: Props) {
  const toast = useToast();
  const router = useRouter();
  const rules = segment?.rules;
  const [name, setName] = useState(segment?.name ?? "");
  const [bookUids, setBookUids] = useState<string[]>(rules?.contactBookUids ?? []);
  const [filters, setFilters] = useState<FilterDraft[]>((rules?.filters ?? []).map(filterDraft));
  const [chosen, setChosen] = useState<string[]>(rules?.labels ?? []);
  const [within, setWithin] = useState(rules?.lastInboundWithin ?? "");
  const [optedIn, setOptedIn] = useState(rules?.optedIn ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const body = {
    segment: {
      name,
      rules: {
        contactBookUids: bookUids,
        filters: filters.map((f) => ({ field: f.field, op: f.op, ...(f.op === "exists" ? {} : { value: f.value }) })),
        labels: chosen,
        lastInboundWithin: within === "" ? null : within,
        optedIn,
      },
    },
  };
  const parsed = SegmentCreateBody.safeParse(body);
  // The live count reads the rules alone (a name is not needed to count).
  const countable = SegmentCountBody.safeParse({ rules: body.segment.rules });
  const key = countable.success ? JSON.stringify(countable.data) : "";
  const settled = useDebounced(key, 400);
  const count = useQuery({
    queryKey: queryKeys.segmentCount(settled),
    queryFn: () => fetchCount(settled),
    enabled: settled !== "",
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    retry: false,
  });
  const updating = key !== settled || count.isFetching;

  // AudienceFields names its errors as a broadcast's audience ("audience.filters.0.value").
  const audienceErrors = Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith("rules."))
      .map(([k, v]) => [`audience.${k.slice("rules.".length)}`, v]),
  );
  const labelsError = Object.entries(errors).find(([k]) => k === "rules.labels" || k.startsWith("rules.labels."))?.[1];
  const labelChoices = [...labels, ...chosen.filter((c) => !labels.some((l) => l.toLowerCase() === c.toLowerCase()))];
  const withinChoices: [string, string][] =
    within !== "" && !WITHIN.some(([v]) => v === within) ? [...WITHIN, [within, within]] : WITHIN;

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (!parsed.success) {
      setErrors(errorsBelowSegment(parsed.error.issues));
      setMessage("Check the highlighted fields");
      return;
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const result = segment
      ? await updateSegmentAction({ uid: segment.uid, segment: parsed.data.segment })
      : await createSegmentAction(parsed.data);
    setPending(false);
    if (!result.ok) {
      setErrors(result.fields ?? {});
      setMessage(result.message);
      toast.error(result.message);
      return;
    }
    toast.success(segment ? "Segment saved" : "Segment created");
    router.push("/broadcasts/segments");
    router.refresh();
  }

  return (
    <form className="max-w-3xl space-y-5" onSubmit={save} noValidate>
      <FormAlert message={message} />
      <div>
        <label htmlFor="segment-name" className={label}>
          Name
        </label>
        <input
          id="segment-name"
          className={input}
          value={name}
          onChange={(e) => setName(e.target.value)}
          {...errorProps("segment-name", errors.name)}
        />
        <FieldMessage inputId="segment-name" message={errors.name} />
      </div>

      <p className={muted}>No contact book chosen: every number the account knows (its books and conversations).</p>
      <AudienceFields
        books={books}
        fields={fields}
        bookUids={bookUids}
        filters={filters}
        onBooks={setBookUids}
        onFilters={setFilters}
        errors={audienceErrors}
      />

      <fieldset {...(labelsError ? { "aria-describedby": "segment-labels-error" } : {})}>
        <legend className={label}>Labels (the contact carries every one)</legend>
        {labelChoices.length === 0 ? (
          <p className={muted}>No labels yet: create them on the inbox&apos;s labels page.</p>
        ) : null}
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {labelChoices.map((l) => (
            <li key={l}>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={chosen.includes(l)}
                  onChange={(e) => setChosen(e.target.checked ? [...chosen, l] : chosen.filter((c) => c !== l))}
                />
                {l}
              </label>
            </li>
          ))}
        </ul>
        <FieldMessage inputId="segment-labels" message={labelsError} />
      </fieldset>

      <div>
        <label htmlFor="segment-within" className={label}>
          Wrote to us within
        </label>
        <select
          id="segment-within"
          className={input}
          value={within}
          onChange={(e) => setWithin(e.target.value)}
          {...errorProps("segment-within", errors["rules.lastInboundWithin"])}
        >
          {withinChoices.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <FieldMessage inputId="segment-within" message={errors["rules.lastInboundWithin"]} />
      </div>

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={optedIn} onChange={(e) => setOptedIn(e.target.checked)} />
        Opted in only (on none of the account&apos;s blacklists)
      </label>

      <div className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <p role="status" aria-busy={updating}>
          {key === "" ? "Complete the rules to count them." : null}
          {key !== "" && count.data === undefined ? "Counting…" : null}
          {key !== "" && count.data !== undefined ? (
            <>
              <span data-testid="segment-live-count">{count.data.toLocaleString("en-US")}</span>{" "}
              {count.data === 1 ? "number" : "numbers"} now
              {updating ? <span className={muted}> (updating…)</span> : null}
            </>
          ) : null}
        </p>
        {key !== "" && count.isError ? (
          <p className="mt-1 text-red-700 dark:text-red-300">{count.error.message}</p>
        ) : null}
      </div>

      <button type="submit" className={button} disabled={pending}>
        {segment ? "Save segment" : "Create segment"}
      </button>
    </form>
  );
}

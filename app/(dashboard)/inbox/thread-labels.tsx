"use client";
// The thread's labels (docs/automation.md "Labels"): the ones it carries, each with a remove
// button, and a picker of the account's other labels to add. The server checks the inbox
// permission and the conversation's scope (POST /conversations/{uid}/labels, lib/api/routes/labels.ts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LabelChip, type LabelColors } from "@/components/dashboard/label-chip";
import { input } from "@/components/ui/classes";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";

export function ThreadLabels({
  uid,
  labels,
  account,
  colors,
  onChanged,
}: {
  uid: string;
  /** The names the conversation carries, sorted. */
  labels: string[];
  /** The account's label names, sorted. */
  account: string[];
  colors: LabelColors;
  onChanged: () => void;
}) {
  const queries = useQueryClient();
  const change = useMutation({
    mutationFn: (body: { add?: string[]; remove?: string[] }) => dashboardApi.changeLabels(uid, body),
    onSuccess: () => {
      onChanged();
      void queries.invalidateQueries({ queryKey: queryKeys.inbox() });
    },
  });
  const carried = new Set(labels.map((l) => l.toLowerCase()));
  const addable = account.filter((name) => !carried.has(name.toLowerCase()));
  const pickerId = `add-label-${uid}`;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="thread-labels">
      <span className="font-medium">Labels:</span>
      {labels.length === 0 ? <span>none</span> : null}
      <ul className="contents" aria-label="Labels of this conversation">
        {labels.map((name) => (
          <li key={name} className="contents">
            <LabelChip name={name} color={colors[name.toLowerCase()]}>
              <button
                type="button"
                className="rounded px-0.5 leading-none hover:bg-black/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 dark:hover:bg-white/10"
                aria-label={`Remove label ${name}`}
                disabled={change.isPending}
                onClick={() => change.mutate({ remove: [name] })}
              >
                ×
              </button>
            </LabelChip>
          </li>
        ))}
      </ul>
      {addable.length > 0 ? (
        <>
          <label htmlFor={pickerId} className="sr-only">
            Add a label
          </label>
          <select
            id={pickerId}
            className={`${input} w-auto`}
            value=""
            disabled={change.isPending}
            onChange={(e) => {
              if (e.target.value) change.mutate({ add: [e.target.value] });
            }}
          >
            <option value="">Add a label…</option>
            {addable.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </>
      ) : null}
      {change.isError ? (
        <p role="alert" className="w-full text-red-700 dark:text-red-300">
          {change.error.message}
        </p>
      ) : null}
    </div>
  );
}

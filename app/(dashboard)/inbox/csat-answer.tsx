"use client";
// The contact's CSAT answer in the thread (docs/reports.md "CSAT"): the face they tapped, when,
// and their comment, for the conversation's latest answered survey.
import { muted } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import type { ThreadCsat } from "@/lib/domains/support/csat-report";

export function CsatAnswer({ csat }: { csat: ThreadCsat | null }) {
  if (!csat) return null;
  return (
    <section
      aria-label="CSAT answer"
      data-testid="thread-csat"
      className="rounded-md border border-slate-200 px-3 py-2 text-sm dark:border-slate-700"
    >
      <p>
        <span className="font-medium">CSAT answer: </span>
        <span data-testid="thread-csat-answer">{csat.answer}</span>{" "}
        <span className={muted}>
          (<time dateTime={csat.at}>{formatDateTime(csat.at)}</time>)
        </span>
      </p>
      {csat.comment ? <p className="mt-1 break-words whitespace-pre-wrap">“{csat.comment}”</p> : null}
    </section>
  );
}

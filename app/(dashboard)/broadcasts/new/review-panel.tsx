"use client";
// The review before the start: recipients, the cost estimate against the balance (said plainly
// when it does not cover it: the start would be refused), the expected duration at the pace and
// the messaging limit, and when it starts.
import { muted } from "@/components/ui/classes";
import { formatMoney } from "@/lib/core/money";
import type { ScheduleDraft } from "./draft";
import type { DraftEstimate } from "./use-draft-estimate";
import { utcToZoned } from "./zoned-time";

/** 75 s -> "1 min 15 s"; 3,700 s -> "1 h 2 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(seconds, 0)} s`;
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h} h ${min} min` : `${min} min${s ? ` ${s} s` : ""}`;
}

type Props = {
  estimate: DraftEstimate | undefined;
  error: string | null;
  updating: boolean;
  schedule: ScheduleDraft;
  scheduledAt: string | null;
};

export function ReviewPanel({ estimate, error, updating, schedule, scheduledAt }: Props) {
  const starts =
    schedule.when === "now"
      ? "Now"
      : scheduledAt
        ? `${utcToZoned(scheduledAt, schedule.zone)} ${schedule.zone} (${scheduledAt.slice(0, 16).replace("T", " ")} UTC)`
        : "Pick a date and a time";
  const when = (
    <p className="text-sm">
      <span className={muted}>Starts: </span>
      <span data-testid="review-starts">{starts}</span>
    </p>
  );
  if (error) {
    return (
      <div className="space-y-3">
        {when}
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      </div>
    );
  }
  if (!estimate) {
    return (
      <div className="space-y-3">
        {when}
        <p className={muted}>Choose a template and at least one contact book to see the estimate.</p>
      </div>
    );
  }
  const e = estimate.estimate;
  const limit = estimate.messagingLimit;
  const overLimit = limit !== null && e.recipients > limit.remaining;
  return (
    <div className="space-y-3" aria-busy={updating} data-testid="review">
      {when}
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className={muted}>Recipients</dt>
          <dd data-testid="review-recipients">{e.recipients.toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt className={muted}>Expected duration</dt>
          <dd data-testid="review-duration">
            {formatDuration(e.durationSeconds)}
            {overLimit ? " plus the pause at the messaging limit" : ""}
          </dd>
        </div>
        <div>
          <dt className={muted}>Cost estimate</dt>
          <dd data-testid="review-cost">{formatMoney(e.cost, e.currency)}</dd>
        </div>
        <div>
          <dt className={muted}>Balance</dt>
          <dd data-testid="review-balance">{formatMoney(estimate.balance, e.currency)}</dd>
        </div>
      </dl>
      {estimate.insufficient ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="insufficient-balance"
        >
          Insufficient balance: this broadcast is estimated at {formatMoney(e.cost, e.currency)} and the balance is{" "}
          {formatMoney(estimate.balance, e.currency)}. Add credit before starting it; you can save it as a draft
          meanwhile.
        </p>
      ) : null}
      {overLimit && limit ? (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          The sender&apos;s messaging limit ({limit.tier.toLocaleString("en-US")} contacts per 24 hours) leaves{" "}
          {limit.remaining.toLocaleString("en-US")} now: the broadcast pauses when it reaches it and resumes by itself
          as the 24 hours roll on.
        </p>
      ) : null}
    </div>
  );
}

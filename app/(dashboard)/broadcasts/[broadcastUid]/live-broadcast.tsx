"use client";
// A broadcast's state, counts and progress bar, following the tab's live stream
// (components/dashboard/use-live-updates.ts): each broadcast.progress notice of this
// broadcast updates the counts in place, and a change of state (or, while sending, every few
// seconds) re-renders the page on the server without a reload (router.refresh keeps this
// document), so the funnel, the failures and the recipients follow. Without the stream it
// polls the same way while the broadcast can still move, and only while the server answers
// (refresh-when-reachable.ts: a refresh against a restarting server loses the page).
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { refreshWhenReachable } from "@/components/dashboard/refresh-when-reachable";
import { useLiveUpdates } from "@/components/dashboard/use-live-updates";
import { card, muted } from "@/components/ui/classes";
import type { CountsPublic } from "@/lib/domains/broadcasts/schemas";
import type { LiveEvent } from "@/lib/domains/live/events";
import { ACTIVE_STATUSES, pauseText, percent } from "../labels";
import { BroadcastControls, type RetryableNow } from "./broadcast-controls";

type Progress = { status: string; total: number; sent: number; failed: number };

export type LiveBroadcastProps = {
  uid: string;
  status: string;
  pauseReason: string | null;
  resumesAt: string | null;
  counts: CountsPublic;
  /** What "Retry failed" would queue now, and the marketing-cap failures that must wait. */
  retryable: RetryableNow;
};

/** While it sends, a re-render of the page at most this often (the funnel, failures, recipients). */
const REFRESH_MS = 2_000;
const POLL_MS = 3_000;
const SENT = ["accepted", "sent", "delivered", "read"] as const;

const sentOf = (c: CountsPublic) => SENT.reduce((n, s) => n + c[s], 0);

export function LiveBroadcast({ uid, status, pauseReason, resumesAt, counts, retryable }: LiveBroadcastProps) {
  const router = useRouter();
  const fromServer: Progress = { status, total: counts.total, sent: sentOf(counts), failed: counts.failed };
  const [notice, setNotice] = useState<Progress | null>(null);
  const shownStatus = useRef(status);
  const lastRefresh = useRef(0);

  // The server's render is newer than the notices before it, unless a notice already counted more.
  const serverDone = fromServer.sent + fromServer.failed;
  useEffect(() => {
    shownStatus.current = status;
    setNotice((n) => (n && n.status === status && n.sent + n.failed > serverDone ? n : null));
  }, [status, serverDone]);

  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (event.kind !== "broadcast.progress" || event.broadcastUid !== uid) return;
      setNotice({ status: event.status, total: event.total, sent: event.sent, failed: event.failed });
      const now = Date.now();
      if (event.status !== shownStatus.current || now - lastRefresh.current >= REFRESH_MS) {
        shownStatus.current = event.status;
        lastRefresh.current = now;
        router.refresh();
      }
    },
    [uid, router],
  );
  const live = useLiveUpdates(true, onEvent);

  // Once the stream is open, catch up on what moved between the page's render and then.
  useEffect(() => {
    if (live) router.refresh();
  }, [live, router]);

  const shown = notice ?? fromServer;
  const moving = ACTIVE_STATUSES.has(shown.status);
  useEffect(() => {
    if (live || !moving) return;
    const timer = setInterval(() => void refreshWhenReachable(router), POLL_MS);
    return () => clearInterval(timer);
  }, [live, moving, router]);

  const finished = Math.min(shown.total, shown.sent + shown.failed + counts.skipped + counts.interrupted);
  const value = shown.status === "COMPLETED" ? shown.total : finished;
  const tiles = [
    { id: "count-total", label: "Recipients", value: shown.total },
    { id: "count-sent", label: "Sent", value: shown.sent },
    { id: "count-failed", label: "Failed", value: shown.failed },
    { id: "count-skipped", label: "Skipped", value: counts.skipped },
  ];
  return (
    <section className={`${card} space-y-4`} aria-labelledby="broadcast-progress" data-live={live ? "on" : "off"}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="broadcast-progress" className="text-lg font-semibold">
          Progress
        </h2>
        <p className="text-sm">
          Status:{" "}
          <span className="font-semibold" data-testid="broadcast-status">
            {shown.status}
          </span>
        </p>
      </div>
      {shown.status === "PAUSED" && status === "PAUSED" ? (
        <p
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          data-testid="pause-reason"
        >
          {pauseText(pauseReason, resumesAt)}
        </p>
      ) : null}
      <div>
        <div
          role="progressbar"
          aria-label="Recipients done"
          aria-valuemin={0}
          aria-valuemax={Math.max(shown.total, 1)}
          aria-valuenow={value}
          aria-valuetext={`${value.toLocaleString("en-US")} of ${shown.total.toLocaleString("en-US")} recipients done`}
          className="h-3 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
        >
          <div
            className="h-full rounded-full bg-indigo-700 transition-[width] dark:bg-indigo-400"
            style={{ width: shown.total > 0 ? `${(value / shown.total) * 100}%` : "0%" }}
          />
        </div>
        <p className={`${muted} mt-1`} data-testid="progress-text">
          {value.toLocaleString("en-US")} of {shown.total.toLocaleString("en-US")} recipients done (
          {percent(value, shown.total)}){live ? "" : " · refreshing every few seconds"}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {tiles.map((t) => (
          <div key={t.id}>
            <dt className={muted}>{t.label}</dt>
            <dd className="text-2xl font-semibold" data-testid={t.id}>
              {t.value.toLocaleString("en-US")}
            </dd>
          </div>
        ))}
      </dl>
      <BroadcastControls uid={uid} status={status} retryable={retryable} />
    </section>
  );
}

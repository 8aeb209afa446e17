"use client";
// The broadcasts list follows the tab's live stream (docs/inbox.md "Live updates"): a
// broadcast.progress notice renders the list again on the server (at most every two
// seconds), so its progress bars and statuses move without a reload. Without the stream the
// list stays as it was rendered: a broadcast's own page is where progress is watched.
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef } from "react";
import { useLiveUpdates } from "@/components/dashboard/use-live-updates";
import type { LiveEvent } from "@/lib/domains/live/events";

const REFRESH_MS = 2_000;

export function FollowBroadcasts() {
  const router = useRouter();
  const last = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (event.kind !== "broadcast.progress" || pending.current) return;
      // The first notice after a quiet spell at once, a burst at most every REFRESH_MS.
      const wait = Math.max(0, last.current + REFRESH_MS - Date.now());
      pending.current = setTimeout(() => {
        pending.current = undefined;
        last.current = Date.now();
        router.refresh();
      }, wait);
    },
    [router],
  );
  useEffect(() => () => clearTimeout(pending.current), []);
  const live = useLiveUpdates(true, onEvent);
  return <span hidden data-live={live ? "on" : "off"} />;
}

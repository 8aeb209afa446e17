"use client";
// The dashboard's live updates (docs/inbox.md "Live updates"): ONE Server-Sent Events
// stream per browser tab (GET /api/dashboard/live, lib/api/dashboard-routes/live.ts), shared by every component that calls
// useLiveUpdates (the navigation's badge, the inbox list, the thread, a broadcast's page).
// A notice names what changed; the queries showing it are invalidated (TanStack Query
// refetches them, a burst coalesced into one refetch per query: live-invalidation.ts).
//
// The stream is kept open for as long as the page is: after any end (the server ended it,
// the network dropped, the server restarted, a stream silent past its heartbeat) the tab
// reconnects with backoff, and each `ready` refetches everything live, so nothing missed
// while it was away stays missing (the notices carry no data: what the page shows is read
// again, rather than replayed with Last-Event-ID). While the stream is not open the hook
// answers false, and the pages poll as before: polling is only the fallback.
import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { LiveEvent } from "@/lib/domains/live/events";
import { EVERY_LIVE_KEY, staleKeysFor } from "./live-invalidation";

const COALESCE_MS = 150;
/** Reconnection backoff: 1 s, 2 s, 4 s, ... at most 10 s, each with jitter; back to 1 s after a `ready`. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 10_000;
/** A stream that sent nothing (not even its heartbeat) for this many heartbeat periods is dropped and reopened. */
const SILENT_PERIODS = 2.5;
/** The heartbeat period until `ready` says the server's. */
const DEFAULT_HEARTBEAT_MS = 15_000;

/** The wait before reconnection number `attempt` (0 first): doubling, capped, jittered to 50-100% so tabs spread out. */
export function reconnectDelayMs(attempt: number, random = Math.random()): number {
  return Math.round(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt) * (0.5 + random / 2));
}

type Tab = {
  source?: EventSource;
  users: number;
  open: boolean;
  client?: QueryClient;
  pending: Map<string, QueryKey>;
  flush?: ReturnType<typeof setTimeout>;
  /** The scheduled reconnection. */
  retry?: ReturnType<typeof setTimeout>;
  /** Reconnections since the last `ready`. */
  attempts: number;
  /** Fires when the stream has been silent too long. */
  watchdog?: ReturnType<typeof setTimeout>;
  heartbeatMs: number;
  notify: Set<() => void>;
  handlers: Set<(event: LiveEvent) => void>;
};
const tab: Tab = {
  users: 0,
  open: false,
  pending: new Map(),
  attempts: 0,
  heartbeatMs: DEFAULT_HEARTBEAT_MS,
  notify: new Set(),
  handlers: new Set(),
};

function setOpen(open: boolean) {
  if (tab.open === open) return;
  tab.open = open;
  for (const f of tab.notify) f();
}

function invalidate(keys: QueryKey[]) {
  for (const key of keys) tab.pending.set(JSON.stringify(key), key);
  tab.flush ??= setTimeout(() => {
    tab.flush = undefined;
    const keys = [...tab.pending.values()];
    tab.pending.clear();
    for (const queryKey of keys) void tab.client?.invalidateQueries({ queryKey });
  }, COALESCE_MS);
}

/** Closes the current stream, if any (the tab is not live until the next `ready`). */
function drop() {
  tab.source?.close();
  tab.source = undefined;
  clearTimeout(tab.watchdog);
  tab.watchdog = undefined;
  setOpen(false);
}

/** The stream ended, failed or went silent: open a new one after the backoff's wait. */
function reconnectLater() {
  drop();
  if (tab.users === 0 || tab.retry) return;
  const delay = reconnectDelayMs(tab.attempts);
  tab.attempts += 1;
  tab.retry = setTimeout(() => {
    tab.retry = undefined;
    connect();
  }, delay);
}

/** Something arrived: the stream is alive; it is dropped if it then stays silent too long. */
function alive() {
  clearTimeout(tab.watchdog);
  tab.watchdog = setTimeout(reconnectLater, tab.heartbeatMs * SILENT_PERIODS);
}

function connect() {
  if (tab.source || tab.users === 0 || typeof EventSource === "undefined") return;
  clearTimeout(tab.retry);
  tab.retry = undefined;
  const source = new EventSource("/api/dashboard/live");
  tab.source = source;
  // Events of a stream already replaced are ignored.
  const on = (name: string, f: (e: MessageEvent<string>) => void) =>
    source.addEventListener(name, (e) => {
      if (tab.source === source) f(e as MessageEvent<string>);
    });
  on("ready", (e) => {
    const heartbeatMs = Number((JSON.parse(e.data) as { heartbeatMs?: number }).heartbeatMs);
    if (heartbeatMs > 0) tab.heartbeatMs = heartbeatMs;
    tab.attempts = 0;
    alive();
    setOpen(true);
    invalidate(EVERY_LIVE_KEY);
  });
  on("ping", alive);
  on("resync", () => {
    alive();
    invalidate(EVERY_LIVE_KEY);
  });
  on("message", (e) => {
    alive();
    let event: LiveEvent;
    try {
      event = JSON.parse(e.data) as LiveEvent;
    } catch {
      return;
    }
    invalidate(staleKeysFor(event));
    for (const handler of tab.handlers) handler(event);
  });
  // The session ended (the reconnection is refused, and the page's own requests lead to the
  // login), the member's access changed (the reconnection carries the new one), or the
  // stream reached its maximum age.
  on("end", reconnectLater);
  // Refused (401, a 5xx), the network dropped, the server went away: the browser would retry
  // some of these by itself at a fixed pace; the backoff here handles all of them alike.
  source.onerror = () => {
    if (tab.source === source) reconnectLater();
  };
}

function disconnect() {
  drop();
  clearTimeout(tab.retry);
  tab.retry = undefined;
  tab.attempts = 0;
}

/** Back online: reconnect now rather than at the backoff's next try. */
function onOnline() {
  if (tab.users === 0 || tab.open) return;
  drop();
  tab.attempts = 0;
  connect();
}

const subscribe = (f: () => void) => {
  tab.notify.add(f);
  return () => tab.notify.delete(f);
};

/**
 * Keeps this tab's live stream open while a component using it is mounted, and answers
 * whether it is open now (use it to poll only when it is not:
 * `refetchInterval: live ? false : POLL_MS`). `onEvent` sees each notice, e.g. a broadcast
 * page showing `broadcast.progress` counts without a refetch.
 */
export function useLiveUpdates(enabled = true, onEvent?: (event: LiveEvent) => void): boolean {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    tab.client = client;
    tab.users += 1;
    if (tab.users === 1) window.addEventListener("online", onOnline);
    connect();
    return () => {
      tab.users -= 1;
      // Navigating between pages unmounts one user before the next mounts: close a moment later.
      setTimeout(() => {
        if (tab.users > 0) return;
        window.removeEventListener("online", onOnline);
        disconnect();
      }, 1_000);
    };
  }, [enabled, client]);
  useEffect(() => {
    if (!enabled || !onEvent) return;
    tab.handlers.add(onEvent);
    return () => {
      tab.handlers.delete(onEvent);
    };
  }, [enabled, onEvent]);
  const open = useSyncExternalStore(
    subscribe,
    () => tab.open,
    () => false,
  );
  return enabled && open;
}

"use client";
// The dashboard's live updates (docs/inbox.md "Live updates"): ONE Server-Sent Events
// stream per browser tab (app/api/dashboard/live), shared by every component that calls
// useLiveUpdates (the navigation's badge, the inbox list, the thread, a broadcast's page).
// A notice names what changed; the queries showing it are invalidated (TanStack Query
// refetches them, a burst coalesced into one refetch per query). `ready` (each
// (re)connection) and `resync` refetch everything live. While the stream is not open the
// hook answers false, and the pages poll as before: polling is only the fallback.
import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { LiveEvent } from "@/lib/domains/live/events";

/** The query keys (prefixes) each notice makes stale. */
function keysFor(event: LiveEvent): QueryKey[] {
  switch (event.kind) {
    case "message.created":
    case "conversation.changed":
    case "conversation.assigned":
      return [["inbox"], ["unread"], ["conversation", event.conversationUid], ["messages"]];
    case "message.status":
      return [["conversation"], ["messages"]];
    case "broadcast.progress":
      return [["broadcasts"], ["broadcast", event.broadcastUid]];
  }
}
/** Everything a live notice can make stale: refetched after a (re)connection or a resync. */
const ALL_KEYS: QueryKey[] = [["inbox"], ["unread"], ["conversation"], ["messages"], ["broadcasts"], ["broadcast"]];

/** After the server refused the stream (signed out, an error): try again this much later, polling meanwhile. */
const REOPEN_MS = 30_000;
const COALESCE_MS = 150;

type Tab = {
  source?: EventSource;
  users: number;
  open: boolean;
  client?: QueryClient;
  pending: Map<string, QueryKey>;
  flush?: ReturnType<typeof setTimeout>;
  reopen?: ReturnType<typeof setTimeout>;
  notify: Set<() => void>;
  handlers: Set<(event: LiveEvent) => void>;
};
const tab: Tab = { users: 0, open: false, pending: new Map(), notify: new Set(), handlers: new Set() };

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

function connect() {
  if (tab.source || typeof EventSource === "undefined") return;
  const source = new EventSource("/api/dashboard/live");
  tab.source = source;
  source.addEventListener("ready", () => {
    setOpen(true);
    invalidate(ALL_KEYS);
  });
  source.addEventListener("resync", () => invalidate(ALL_KEYS));
  source.addEventListener("message", (e) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(e.data) as LiveEvent;
    } catch {
      return;
    }
    const keys = keysFor(event);
    if (keys) invalidate(keys);
    for (const handler of tab.handlers) handler(event);
  });
  // The member is gone (removed, account suspended): no reconnection; the pages' own
  // requests now lead to the login.
  source.addEventListener("end", () => disconnect());
  source.onerror = () => {
    setOpen(false);
    // CONNECTING: the browser reconnects by itself (the `retry` the server sent), and its
    // `ready` refetches. CLOSED: refused (401, 403, a 5xx); poll, and try again later.
    if (source.readyState === EventSource.CLOSED) {
      disconnect();
      if (tab.users > 0) tab.reopen = setTimeout(connect, REOPEN_MS);
    }
  };
}

function disconnect() {
  tab.source?.close();
  tab.source = undefined;
  clearTimeout(tab.reopen);
  tab.reopen = undefined;
  setOpen(false);
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
    connect();
    return () => {
      tab.users -= 1;
      // Navigating between pages unmounts one user before the next mounts: close a moment later.
      setTimeout(() => {
        if (tab.users === 0) disconnect();
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

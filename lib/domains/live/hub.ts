// The live streams open in this process and the one subscription that feeds them
// (docs/inbox.md "Live updates"). Every instance LISTENs on the live channel over the
// process's one listening connection (lib/db/wakeups.ts), so a change committed by any
// instance reaches the streams of all of them; each notice is passed to the streams of its
// customer whose member may receive it (filter.ts). One timer serves every stream: a
// heartbeat, and a fresh read of each member (a removed member, or a suspended account,
// has its streams closed; a changed role or sender list applies from then on).
import { log } from "@/lib/core/log";
import { onNotification } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import { principalForSession } from "@/lib/domains/auth/session-principal";
import type { LiveEvent, LivePayload } from "./events";
import { mayReceive } from "./filter";

/** One open stream, as the hub sees it. */
export type LiveClient = {
  principal: Principal;
  /** A notice this member may receive. */
  deliver(event: LiveEvent): void;
  /** The listening connection came back: notices may have been missed, refetch everything. */
  resync(): void;
  heartbeat(): void;
  /** The member is gone (removed, signed out for good, account suspended): end the stream. */
  end(reason: string): void;
};

type Hub = {
  byCustomer: Map<string, Set<LiveClient>>;
  unsubscribe?: () => void;
  timer?: NodeJS.Timeout;
  checkMs: number;
};
const g = globalThis as { __switchboardLiveHub?: Hub };
g.__switchboardLiveHub ??= { byCustomer: new Map(), checkMs: 15_000 };
const hub: Hub = g.__switchboardLiveHub;

function parse(payload: string): LivePayload | undefined {
  try {
    const value = JSON.parse(payload) as LivePayload;
    return typeof value?.c === "string" && Array.isArray(value.e) ? value : undefined;
  } catch {
    return undefined;
  }
}

function dispatch(payload: string | undefined) {
  if (payload === undefined) {
    // The subscription started (a stream opened before its LISTEN was in place may have missed
    // a notice) or reconnected (notices sent meanwhile are lost): every page refetches.
    for (const set of hub.byCustomer.values()) for (const client of set) client.resync();
    return;
  }
  const message = parse(payload);
  if (!message) {
    log.warn({ bytes: payload.length }, "live notice not understood; ignored");
    return;
  }
  const clients = hub.byCustomer.get(message.c);
  if (!clients) return;
  for (const client of clients)
    for (const event of message.e) if (mayReceive(client.principal, event)) client.deliver(event);
}

/** Every stream's heartbeat, and each member read again (one read per member, not per stream). */
async function check() {
  const members = new Map<string, LiveClient[]>();
  for (const set of hub.byCustomer.values())
    for (const client of set) {
      client.heartbeat();
      const key = `${client.principal.customerId}|${client.principal.userId}`;
      members.set(key, [...(members.get(key) ?? []), client]);
    }
  for (const clients of members.values()) {
    const { customerId, userId } = clients[0].principal;
    try {
      const fresh = await principalForSession({ userId, customerId });
      for (const client of clients) {
        if (fresh) client.principal = fresh;
        else client.end("signed-out");
      }
    } catch (error) {
      log.warn({ err: error }, "live stream member check failed; kept until the next check");
    }
  }
}

/** How often streams get a heartbeat and their member is read again (tests shorten it). */
export function setLiveCheckInterval(ms: number) {
  hub.checkMs = ms;
  if (hub.timer) {
    clearInterval(hub.timer);
    hub.timer = undefined;
    ensureTimer();
  }
}

function ensureTimer() {
  if (hub.timer) return;
  hub.timer = setInterval(() => void check(), hub.checkMs);
  hub.timer.unref();
}

/** Adds a stream; returns its removal. The first stream starts the subscription, the last ends it. */
export function addLiveClient(client: LiveClient): () => void {
  const { customerId } = client.principal;
  let set = hub.byCustomer.get(customerId);
  if (!set) {
    set = new Set();
    hub.byCustomer.set(customerId, set);
  }
  set.add(client);
  hub.unsubscribe ??= onNotification("live", dispatch);
  ensureTimer();
  return () => {
    const current = hub.byCustomer.get(customerId);
    if (!current?.delete(client)) return;
    if (current.size === 0) hub.byCustomer.delete(customerId);
    if (hub.byCustomer.size === 0) {
      hub.unsubscribe?.();
      hub.unsubscribe = undefined;
      if (hub.timer) clearInterval(hub.timer);
      hub.timer = undefined;
    }
  };
}

/** How many streams this process holds (the benchmark and tests). */
export function liveClientCount(): number {
  let n = 0;
  for (const set of hub.byCustomer.values()) n += set.size;
  return n;
}

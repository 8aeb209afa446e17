// The live streams open in this process and the one subscription that feeds them
// (docs/inbox.md "Live updates"). Every instance LISTENs on the live channel over the
// process's one listening connection (lib/db/wakeups.ts), so a change committed by any
// instance reaches the streams of all of them; each notice is passed to the streams of its
// customer whose member may receive it (filter.ts). A member's access is checked per
// session: at once when the database says it changed (a session ended, a member removed, a
// role or sender list changed, the account suspended: the triggers of migration
// 20261128120000_live_access_notify), and on one timer for every stream, which also sends
// each stream that passed its check a heartbeat.
// The fan-out reads nothing from the database (a notice carries what the filter needs, and
// each stream holds its principal): each notice is written once as Server-Sent Events bytes,
// shared by every stream it goes to, and the notices that arrive together (the listening
// connection parses several from one read under load) reach each stream as one chunk, so a
// sustained rate costs one write per stream per burst, not per notice
// (docs/benchmarks.md "Live updates").
import { outsideRequest } from "@/lib/core/db-context";
import { log } from "@/lib/core/log";
import { onNotification } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import { principalForSession } from "@/lib/domains/security/session-principal";
import type { AccessPayload, LivePayload } from "./events";
import { mayReceive } from "./filter";
import { sseEvent } from "./sse";

/**
 * Why a stream ended: its session is no longer valid (signed out, ended, expired, the member
 * removed, the account suspended); the member's access changed (role, senders, plan, 2FA):
 * the browser reconnects under the new one; or it reached its maximum age (renew).
 */
export type EndReason = "signed-out" | "access-changed" | "renew";

/** One open stream, as the hub sees it. */
export type LiveClient = {
  principal: Principal;
  /** Notices this member may receive, as Server-Sent Events (one or more, written as one chunk). */
  deliver(bytes: Uint8Array): void;
  /** The listening connection came back: notices may have been missed, refetch everything. */
  resync(): void;
  /** The member's session was checked and still holds (the stream's heartbeat). */
  heartbeat(): void;
  end(reason: EndReason): void;
};

type Hub = {
  byCustomer: Map<string, Set<LiveClient>>;
  unsubscribe?: () => void;
  timer?: NodeJS.Timeout;
  checkMs: number;
  checking: boolean;
  /** Each stream's notices since the last flush (one chunk per stream per flush). */
  pending: Map<LiveClient, Uint8Array[]>;
  flushing?: NodeJS.Immediate;
};
const g = globalThis as { __switchboardLiveHub?: Hub };
g.__switchboardLiveHub ??= { byCustomer: new Map(), checkMs: 15_000, checking: false, pending: new Map() };
const hub: Hub = g.__switchboardLiveHub;
hub.pending ??= new Map(); // a hub kept from before a reload in development may lack it

function parse(payload: string): LivePayload | AccessPayload | undefined {
  try {
    const value = JSON.parse(payload) as Partial<LivePayload & AccessPayload>;
    if (typeof value?.c !== "string") return undefined;
    if (Array.isArray(value.e)) return { c: value.c, e: value.e };
    if (value.member === null || typeof value.member === "string") return { c: value.c, member: value.member };
    return undefined;
  } catch {
    return undefined;
  }
}

const everyClient = () => [...hub.byCustomer.values()].flatMap((set) => [...set]);

function dispatch(payload: string | undefined) {
  if (payload === undefined) {
    // The subscription started (a stream opened before its LISTEN was in place may have missed
    // a notice) or reconnected (notices sent meanwhile are lost, access changes too): every
    // page refetches, and every session is read again.
    const clients = everyClient();
    for (const client of clients) client.resync();
    void checkSessions(clients);
    return;
  }
  const message = parse(payload);
  if (!message) {
    log.warn({ bytes: payload.length }, "live notice not understood; ignored");
    return;
  }
  const clients = hub.byCustomer.get(message.c);
  if (!clients) return;
  if ("member" in message) {
    const { member } = message;
    void checkSessions([...clients].filter((c) => member === null || c.principal.userId === member));
    return;
  }
  const bytes: Uint8Array[] = []; // each notice's bytes, written once for all its streams
  for (const client of clients) {
    let queued = hub.pending.get(client);
    for (const [i, event] of message.e.entries()) {
      if (!mayReceive(client.principal, event)) continue;
      let part = bytes[i];
      if (!part) {
        part = sseEvent(event);
        bytes[i] = part;
      }
      if (!queued) {
        queued = [];
        hub.pending.set(client, queued);
      }
      queued.push(part);
    }
  }
  // After the notices of this read of the connection (emitted one after another, at once).
  hub.flushing ??= setImmediate(flush);
}

/** Writes each stream's pending notices as one chunk. */
function flush() {
  hub.flushing = undefined;
  const pending = hub.pending;
  hub.pending = new Map();
  for (const [client, parts] of pending)
    client.deliver(parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts));
}

/** What the streams' filter and the route's guard read of a principal; another value ends the stream. */
const accessOf = (p: Principal) =>
  JSON.stringify([p.customerId, p.plan, p.twoFactorSetupRequired ?? false, p.member?.role, p.member?.senderIds]);

/**
 * Reads each session behind these streams again (one read per session, not per stream):
 * a session no longer valid ends its streams with `signed-out`, a changed access with
 * `access-changed` (the browser reconnects under the new role). Returns the streams that
 * passed. A failed read keeps the streams until the next check.
 */
async function checkSessions(clients: LiveClient[]): Promise<LiveClient[]> {
  const bySession = new Map<string, LiveClient[]>();
  for (const client of clients) {
    const key = client.principal.sessionId ?? "";
    bySession.set(key, [...(bySession.get(key) ?? []), client]);
  }
  const passed: LiveClient[] = [];
  for (const [sessionId, group] of bySession) {
    const { customerId, userId } = group[0].principal;
    let fresh: Principal | null;
    try {
      fresh = sessionId ? await principalForSession({ userId, customerId, sessionId }) : null;
    } catch (error) {
      log.warn({ err: error }, "live stream session check failed; kept until the next check");
      passed.push(...group);
      continue;
    }
    for (const client of group) {
      if (!fresh) client.end("signed-out");
      else if (accessOf(fresh) !== accessOf(client.principal)) client.end("access-changed");
      else passed.push(client);
    }
  }
  return passed;
}

/** The timer: every session read again, then a heartbeat to each stream that passed. */
async function periodicCheck() {
  if (hub.checking) return; // a slow database: the previous round is still reading
  hub.checking = true;
  try {
    for (const client of await checkSessions(everyClient())) client.heartbeat();
  } finally {
    hub.checking = false;
  }
}

/** How often streams are checked and get a heartbeat (tests shorten it). */
export function setLiveCheckInterval(ms: number) {
  hub.checkMs = ms;
  if (hub.timer) {
    clearInterval(hub.timer);
    hub.timer = undefined;
    ensureTimer();
  }
}

/** The heartbeat's period: the browser treats a stream silent for much longer as dropped. */
export const liveCheckInterval = () => hub.checkMs;

function ensureTimer() {
  if (hub.timer) return;
  // The stream that opens first starts the timer inside its request (lib/api/router.ts runs each
  // in asRequest): it checks every customer's sessions, so it must not be counted as that one's.
  hub.timer = outsideRequest(() => setInterval(() => void periodicCheck(), hub.checkMs));
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
  // As the timer: the subscription's callbacks serve every stream, never the opening request.
  hub.unsubscribe ??= outsideRequest(() => onNotification("live", dispatch));
  ensureTimer();
  return () => {
    hub.pending.delete(client);
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

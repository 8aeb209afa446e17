// Wake-ups for the background work (docs/architecture.md "Background work"): writers
// NOTIFY a channel in the same statement or transaction that adds the row (so a listener
// never wakes before the row is visible, and a rolled-back write wakes no one); the
// workers LISTEN on one dedicated pg connection per process and otherwise sleep on a slow
// safety poll (WORKER_POLL_MS). Embedded mode: lib/db/pglite-queue.ts relays a
// notification to every connection of the PGlite socket (PGlite has one session).
import pg from "pg";
import { log } from "@/lib/core/log";
import type { WakeSource } from "@/lib/core/worker-loop";
import { Prisma } from "@/lib/generated/prisma/client";

export const CHANNELS = {
  callbacks: "switchboard_callbacks",
  deliveries: "switchboard_deliveries",
  chatbots: "switchboard_chatbots",
  reconnect: "switchboard_reconnect",
  /** A webhook recovery job was queued (docs/webhook-recovery.md). */
  recoveries: "switchboard_recoveries",
  /** An ApiToken or Customer row that verifyToken reads changed (docs/tokens.md "Verified-token cache"). */
  tokens: "switchboard_tokens",
  /** An email was queued in the outbox (docs/email.md). */
  mail: "switchboard_mail",
  /** An inbound file to fetch from the provider was recorded (docs/media.md "Inbound media"). */
  media: "switchboard_media",
  /** A change the open dashboards show live; the payload says what (lib/domains/live, docs/inbox.md "Live updates"). */
  live: "switchboard_live",
  /** A broadcast's state, start or resume time changed (a trigger on "Broadcast"; docs/broadcasts.md "How it sends"). */
  broadcasts: "switchboard_broadcasts",
  /** A scheduled job was written due now (lib/domains/schedule, docs/automation.md). */
  jobs: "switchboard_jobs",
} as const;
export type Channel = keyof typeof CHANNELS;

/**
 * `pg_notify(...)` as an SQL expression, for a CTE or a SELECT list of the writing statement;
 * `payload` is an SQL expression (a parameter such as `$3`), empty by default.
 */
export function notifyExpression(channel: Channel, payload = "''"): string {
  return `pg_notify('${CHANNELS[channel]}', ${payload})`;
}

/** A statement of its own, for a transaction that adds rows (run it inside the transaction). */
export function notifyStatement(channel: Channel): Prisma.Sql {
  return Prisma.sql`SELECT ${Prisma.raw(notifyExpression(channel))}`;
}

/** The notification's payload, or undefined after a (re)connection (anything may have changed). */
type Listener = (payload: string | undefined) => void;
type State = {
  listeners: Map<string, Set<Listener>>;
  client?: pg.Client;
  /** Channels whose LISTEN has completed on `client` (cleared with it). */
  listening?: Set<string>;
  connecting?: Promise<void>;
  retryTimer?: NodeJS.Timeout;
  retryMs: number;
  /** LISTEN / UNLISTEN run one after another (pg allows one query at a time per client). */
  chain: Promise<unknown>;
};
const g = globalThis as { __switchboardWakeups?: State };
g.__switchboardWakeups ??= { listeners: new Map(), retryMs: 250, chain: Promise.resolve() };
const state: State = g.__switchboardWakeups;

function fire(channel: string, payload?: string) {
  for (const listener of state.listeners.get(channel) ?? []) {
    try {
      listener(payload);
    } catch (error) {
      log.warn({ err: error, channel }, "wake-up listener failed");
    }
  }
}

async function databaseUrl(): Promise<string> {
  const { resolveDatabaseUrl } = await import("./url");
  return (await resolveDatabaseUrl()).url;
}

function scheduleReconnect() {
  if (state.retryTimer || state.listeners.size === 0) return;
  const delay = state.retryMs;
  state.retryMs = Math.min(state.retryMs * 2, 10_000);
  state.retryTimer = setTimeout(() => {
    state.retryTimer = undefined;
    void connect();
  }, delay);
  state.retryTimer.unref();
}

function connect(): Promise<void> {
  state.connecting ??= (async () => {
    // Keep-alive: a peer that vanished without closing (a cut network) is noticed, and the
    // token cache stops serving (isListening); its 60 s maximum age bounds the wait meanwhile.
    const client = new pg.Client({
      connectionString: await databaseUrl(),
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = (err?: Error) => {
      if (state.client !== client) return;
      state.client = undefined;
      if (err) log.warn({ err }, "wake-up connection lost; reconnecting");
      client.end().catch(() => {});
      scheduleReconnect();
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (n) => fire(n.channel, n.payload ?? ""));
    const listening = new Set<string>();
    try {
      await client.connect();
      for (const channel of state.listeners.keys()) {
        await client.query(`LISTEN ${channel}`);
        listening.add(channel);
      }
    } catch (error) {
      client.end().catch(() => {}); // not kept: the retry opens a new one
      throw error;
    }
    state.listening = listening;
    state.client = client;
    state.retryMs = 250;
    // Anything written while no one listened (start-up, a reconnect) is picked up now.
    for (const channel of state.listeners.keys()) fire(channel);
  })()
    .catch((error) => {
      log.warn({ err: error }, "wake-up connection failed; retrying");
      scheduleReconnect();
    })
    .finally(() => {
      state.connecting = undefined;
    });
  return state.connecting;
}

function serial(client: pg.Client, sql: string, done?: () => void) {
  state.chain = state.chain
    .then(() => client.query(sql))
    .then(() => done?.())
    .catch((error) => {
      // The channel stays unheard (the token cache then serves nothing) until the connection
      // is replaced: end it, and the reconnection listens again.
      log.warn({ err: error, sql }, "wake-up LISTEN/UNLISTEN failed; reconnecting");
      if (state.client === client) client.end().catch(() => {});
    });
}

/**
 * Calls `listener` after every commit that notified `channel` (from any process), once
 * when it starts listening, and once after each reconnection of the listening client.
 * Returns the unsubscribe.
 */
export function onWakeup(channel: Channel, listener: () => void): () => void {
  return onNotification(channel, () => listener());
}

/** A worker's wake source (lib/core/worker-loop.ts): NOTIFY on `channel`, from any process. */
export const wakeupsOn =
  (channel: Channel): WakeSource =>
  (wake) =>
    onWakeup(channel, wake);

/**
 * As wakeupsOn, for the notifications whose payload `wanted` accepts, and at each start and
 * reconnection (anything may have changed then): a worker that shares a channel with others
 * wakes only for its own work (the scheduled jobs' kinds: lib/domains/schedule/jobs.ts).
 */
export const wakeupsWhen =
  (channel: Channel, wanted: (payload: string) => boolean): WakeSource =>
  (wake) =>
    onNotification(channel, (payload) => {
      if (payload === undefined || wanted(payload)) wake();
    });

/**
 * As onWakeup, with the notification's payload; `undefined` after each (re)connection
 * (notifications sent while no one listened are lost: treat it as "anything changed").
 */
export function onNotification(channel: Channel, listener: Listener): () => void {
  const name = CHANNELS[channel];
  let set = state.listeners.get(name);
  const client = state.client;
  // A listener added to a live connection gets the start-up call a (re)connection gives the
  // others (anything written before it listened is picked up), once its LISTEN is in place.
  const started = () => {
    if (state.client !== client || !state.listeners.get(name)?.has(listener)) return;
    try {
      listener(undefined);
    } catch (error) {
      log.warn({ err: error, channel: name }, "wake-up listener failed");
    }
  };
  if (!set) {
    set = new Set();
    state.listeners.set(name, set);
    if (client)
      serial(client, `LISTEN ${name}`, () => {
        if (state.client === client) state.listening?.add(name);
        started();
      });
  } else if (client) {
    state.chain = state.chain.then(started);
  }
  set.add(listener);
  if (!state.client && !state.connecting && !state.retryTimer) void connect();
  return () => {
    const current = state.listeners.get(name);
    current?.delete(listener);
    if (current?.size === 0) {
      state.listeners.delete(name);
      state.listening?.delete(name);
      if (state.client) serial(state.client, `UNLISTEN ${name}`);
    }
    if (state.listeners.size === 0) void closeWakeups();
  };
}

/**
 * True while a notification on `channel` committed from now on is sure to reach this
 * process: the listening connection is up and its LISTEN has completed. A connection that
 * drops makes it false at once (its "error"/"end" event), until the reconnection's
 * listeners have run.
 */
export function isListening(channel: Channel): boolean {
  return state.client !== undefined && state.listening?.has(CHANNELS[channel]) === true;
}

/** Resolves once the listening connection is up (tests; start-up). */
export async function wakeupsReady(): Promise<void> {
  while (!state.client && state.listeners.size > 0) await (state.connecting ?? new Promise((r) => setTimeout(r, 50)));
}

/** Ends the listening connection (the last unsubscribe does it too). */
export async function closeWakeups(): Promise<void> {
  if (state.retryTimer) clearTimeout(state.retryTimer);
  state.retryTimer = undefined;
  await state.connecting;
  const client = state.client;
  state.client = undefined;
  await state.chain;
  await client?.end().catch(() => {});
}

// Per-token API usage (docs/tokens.md "Usage"): the router hands every token-authenticated
// request here after its response is built; rows wait in a bounded in-memory buffer and are
// written in batches (one multi-row INSERT, one upsert of the hourly counts) every
// FLUSH_INTERVAL_MS or FLUSH_ROWS rows, so no request waits for a write.

import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { db, hotRows } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";

export const FLUSH_INTERVAL_MS = 1_000;
export const FLUSH_ROWS = 500;
/** Past this many unwritten rows new ones are dropped (and counted), never the API slowed. */
export const MAX_BUFFERED_ROWS = 20_000;
export const RECENT_LIMIT = 100;
const HOUR_MS = 3_600_000;
const PRUNE_EVERY_MS = HOUR_MS;

export type UsageRow = {
  customerId: string;
  tokenId: string;
  at: Date;
  method: string;
  /** Already redacted (lib/core/log.ts redactUrl): never a token. */
  path: string;
  status: number;
  latencyMs: number;
  clientIp: string;
  requestId: string;
};

const state = {
  enabled: undefined as boolean | undefined,
  buffer: [] as UsageRow[],
  dropped: 0,
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: undefined as Promise<void> | undefined,
  lastPrune: 0,
};

export function usageRecordingEnabled(): boolean {
  state.enabled ??= env().API_USAGE_RECORDING === "on";
  return state.enabled;
}

/** Queues one request; never throws, never awaits. */
export function recordUsage(row: UsageRow): void {
  if (!usageRecordingEnabled()) return;
  if (state.buffer.length >= MAX_BUFFERED_ROWS) {
    state.dropped++;
    return;
  }
  state.buffer.push(row);
  if (state.buffer.length >= FLUSH_ROWS) void flushUsage();
  else if (!state.timer) {
    state.timer = setTimeout(() => void flushUsage(), FLUSH_INTERVAL_MS);
    state.timer.unref?.();
  }
}

/** Writes everything buffered so far (tests and shutdown call it directly). */
export async function flushUsage(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  // One flush at a time; a second caller waits for it, then writes what came since.
  while (state.flushing) await state.flushing;
  const rows = state.buffer.splice(0, state.buffer.length);
  if (rows.length === 0) return;
  state.flushing = writeBatch(rows)
    .catch((err) => log.warn({ err, rows: rows.length }, "API usage batch not written"))
    .finally(() => {
      state.flushing = undefined;
    });
  await state.flushing;
}

async function writeBatch(rows: UsageRow[]): Promise<void> {
  // One statement on plain pg for the whole batch: the rows as nine arrays (unnest), the log
  // insert and the hourly upsert in one atomic statement. Through Prisma, a 500-row batch's
  // 4,500 parameters cost the API ~0.1 ms of CPU per request (docs/benchmarks.md).
  const col = <T>(pick: (r: UsageRow) => T) => rows.map(pick);
  await hotRows({
    text: `WITH input AS (
        SELECT "customerId", "tokenId", at::timestamptz AT TIME ZONE 'UTC' AS at, method, path, status, "latencyMs",
          "clientIp", "requestId"
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::text[])
          AS t("customerId", "tokenId", at, method, path, status, "latencyMs", "clientIp", "requestId")
      ), logged AS (
        INSERT INTO "ApiRequestLog" ("customerId", "tokenId", "at", "method", "path", "status", "latencyMs", "clientIp", "requestId")
        SELECT "customerId", "tokenId", at, method, path, status, "latencyMs", "clientIp", "requestId" FROM input
      )
      INSERT INTO "ApiUsageHour" ("tokenId", "hour", "customerId", "requests", "errors")
      SELECT "tokenId", date_trunc('hour', at), min("customerId"), count(*)::int, (count(*) FILTER (WHERE status >= 400))::int
      FROM input GROUP BY "tokenId", date_trunc('hour', at)
      ON CONFLICT ("tokenId", "hour") DO UPDATE SET
        "requests" = "ApiUsageHour"."requests" + EXCLUDED."requests",
        "errors" = "ApiUsageHour"."errors" + EXCLUDED."errors"`,
    values: [
      col((r) => r.customerId),
      col((r) => r.tokenId),
      col((r) => r.at.toISOString()),
      col((r) => r.method),
      col((r) => r.path),
      col((r) => r.status),
      col((r) => Math.round(r.latencyMs)),
      col((r) => r.clientIp),
      col((r) => r.requestId),
    ],
  });
  const now = Date.now();
  if (now - state.lastPrune >= PRUNE_EVERY_MS) {
    state.lastPrune = now;
    await pruneUsageLog(new Date(now));
  }
}

/** Retention: raw rows older than USAGE_LOG_RETENTION_DAYS go; the hourly counts stay. */
export async function pruneUsageLog(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - env().USAGE_LOG_RETENTION_DAYS * 24 * HOUR_MS);
  const { count } = await db.apiRequestLog.deleteMany({ where: { at: { lt: cutoff } } });
  return count;
}

export type UsageScope = { tokenId?: string };

/**
 * The last 100 requests and 30 days of hourly counts, for one token of this customer or
 * for the whole account. A token id of another customer finds nothing.
 */
export async function usageFor(p: Pick<Principal, "customerId">, scope: UsageScope = {}, now = new Date()) {
  if (!p.customerId) throw new Error("usageFor needs a customer");
  const since = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 30 * 24 * HOUR_MS);
  const where = { customerId: p.customerId, ...(scope.tokenId ? { tokenId: scope.tokenId } : {}) };
  const [recent, hourly] = await Promise.all([
    db.apiRequestLog.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], take: RECENT_LIMIT }),
    db.apiUsageHour.groupBy({
      by: ["hour"],
      where: { ...where, hour: { gte: since } },
      _sum: { requests: true, errors: true },
      orderBy: { hour: "asc" },
    }),
  ]);
  const hours = hourly.map((h) => ({
    hour: h.hour.toISOString(),
    requests: h._sum.requests ?? 0,
    errors: h._sum.errors ?? 0,
  }));
  const requests = hours.reduce((n, h) => n + h.requests, 0);
  const errors = hours.reduce((n, h) => n + h.errors, 0);
  return {
    totals: { requests, errors, errorRate: requests === 0 ? 0 : errors / requests },
    hours,
    recent: recent.map((r) => ({
      at: r.at.toISOString(),
      tokenId: r.tokenId,
      method: r.method,
      path: r.path,
      status: r.status,
      latencyMs: r.latencyMs,
      clientIp: r.clientIp,
      requestId: r.requestId,
    })),
  };
}
export type TokenUsage = Awaited<ReturnType<typeof usageFor>>;

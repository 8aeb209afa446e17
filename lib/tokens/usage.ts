// Per-token API usage (docs/tokens.md "Usage"): the router hands every token-authenticated
// request here after its response is built; rows wait in a bounded in-memory buffer and are
// written in batches (one multi-row INSERT, one upsert of the hourly counts) every
// FLUSH_INTERVAL_MS or FLUSH_ROWS rows, so no request waits for a write.
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";

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
  /** Already redacted (lib/log.ts redactUrl): never a token. */
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

/** Turns recording on or off at run time (bench:api compares both in one run). */
export function setUsageRecording(enabled: boolean) {
  state.enabled = enabled;
}

export function usageRecordingEnabled(): boolean {
  state.enabled ??= env().API_USAGE_RECORDING === "on";
  return state.enabled;
}

/** Rows dropped because the buffer was full (since the process started). */
export const droppedUsageRows = () => state.dropped;

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
  const hours = new Map<
    string,
    { tokenId: string; customerId: string; hour: Date; requests: number; errors: number }
  >();
  for (const r of rows) {
    const hour = new Date(Math.floor(r.at.getTime() / HOUR_MS) * HOUR_MS);
    const key = `${r.tokenId}|${hour.getTime()}`;
    const h = hours.get(key) ?? { tokenId: r.tokenId, customerId: r.customerId, hour, requests: 0, errors: 0 };
    h.requests++;
    if (r.status >= 400) h.errors++;
    hours.set(key, h);
  }
  const values = rows.map(
    (r) =>
      Prisma.sql`(${r.customerId}, ${r.tokenId}, ${r.at}, ${r.method}, ${r.path}, ${r.status}, ${r.latencyMs}, ${r.clientIp}, ${r.requestId})`,
  );
  const counts = [...hours.values()].map(
    (h) => Prisma.sql`(${h.tokenId}, ${h.hour}, ${h.customerId}, ${h.requests}, ${h.errors})`,
  );
  await db.$transaction([
    db.$executeRaw`INSERT INTO "ApiRequestLog"
      ("customerId", "tokenId", "at", "method", "path", "status", "latencyMs", "clientIp", "requestId")
      VALUES ${Prisma.join(values)}`,
    db.$executeRaw`INSERT INTO "ApiUsageHour" ("tokenId", "hour", "customerId", "requests", "errors")
      VALUES ${Prisma.join(counts)}
      ON CONFLICT ("tokenId", "hour") DO UPDATE SET
        "requests" = "ApiUsageHour"."requests" + EXCLUDED."requests",
        "errors" = "ApiUsageHour"."errors" + EXCLUDED."errors"`,
  ]);
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

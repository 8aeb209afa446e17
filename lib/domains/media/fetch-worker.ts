// The media worker (docs/media.md "Inbound media"): fetches the files contacts send. It
// claims due `pending` inbound records under a lease (FOR UPDATE SKIP LOCKED: two workers never
// hold one record, and a worker that dies lets it go when its lease ends), asks the provider
// for the file (`GET /{providerMediaId}`, then its url, with the sender's credentials), streams
// it into staging while its type, size and SHA-256 are checked, and keeps it content-addressed
// in the store: `ready`. A failed attempt is retried with backoff (full jitter) until the
// record's fetchDeadline (6 hours after arrival), then the file is `unavailable` with the
// reason; bytes that are not what the callback announced (another sha256, a type the provider
// does not take) are `unavailable` at once. Every outcome is fenced by the lease, and each
// change is published on the live stream so an open thread fills in.
import { retryDelayMs } from "@/lib/core/backoff";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { IDLE, MORE, type WorkerDefinition, type WorkerSleep } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { wakeupsOn } from "@/lib/db/wakeups";
import { publishLive } from "@/lib/domains/live/publish";
import { getProvider } from "@/lib/domains/provider/client";
import { ProviderMediaError } from "@/lib/domains/provider/media-error";
import type { ProviderMediaDownloads, ProviderSender } from "@/lib/domains/provider/types";
import { sha256Hex } from "./inbound";
import { dropReference, type ObjectRef, putObject, takeReference } from "./objects";
import { type StagedFile, stageFile } from "./staging";

export type MediaWorkerOptions = {
  /** The provider's downloads (default: this process's provider, the simulator or the HTTP client). */
  provider?: ProviderMediaDownloads;
  /** Files fetched at once per pass. */
  batchSize?: number;
  /** How long a claim holds a record (default: MEDIA_FETCH_TIMEOUT_MS and a margin). */
  leaseMs?: number;
  /** First retry delay (default MEDIA_FETCH_RETRY_BASE_MS); doubles per attempt up to maxRetryMs. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** Only these customers' files (isolated tests). */
  customerIds?: string[] | null;
  pollMs?: number;
  sleep?: WorkerSleep;
};

type Claimed = {
  id: string;
  customerId: string;
  senderId: string | null;
  kind: string;
  mimeType: string;
  sha256: string | null;
  filename: string | null;
  providerMediaId: string;
  fetchDeadline: Date | null;
  attempts: number;
  lastError: string | null;
  lease: string;
};

type Outcome =
  | { status: "ready"; mimeType: string }
  | { status: "retry"; error: string }
  | { status: "unavailable"; reason: string }
  | { status: "lost" };

const DEFAULT_BATCH = 16;
/** The lease: the download's timeout and as much again, at most 30 seconds more. */
const leaseFor = (timeoutMs: number) => timeoutMs + Math.min(timeoutMs, 30_000);

/** Claims up to `limit` due pending inbound files for `leaseMs`, oldest due first. */
async function claimDownloads(limit: number, leaseMs: number, customerIds: string[] | null): Promise<Claimed[]> {
  const scope = customerIds ? `AND "customerId" = ANY($3::text[])` : "";
  return db.$queryRawUnsafe<Claimed[]>(
    `WITH due AS MATERIALIZED (
       SELECT "id" FROM "Media"
       WHERE "status" = 'pending' AND "source" = 'inbound' AND "nextAttemptAt" <= ${NOW_UTC}
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "nextAttemptAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "Media" AS md
     SET "lockedUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond'), "attempts" = md."attempts" + 1,
       "updatedAt" = ${NOW_UTC}
     FROM due WHERE md."id" = due."id"
     RETURNING md."id", md."customerId", md."senderId", md."kind", md."mimeType", md."sha256", md."filename",
       md."providerMediaId", md."fetchDeadline", md."attempts", md."lastError", md."lockedUntil"::text AS "lease"`,
    ...(customerIds ? [limit, leaseMs, customerIds] : [limit, leaseMs]),
  );
}

/** The senders of these records as the provider knows them (null: no longer connected). */
async function sendersOf(rows: Claimed[]): Promise<Map<string, ProviderSender>> {
  const ids = [...new Set(rows.map((r) => r.senderId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const senders = await db.sender.findMany({
    where: { id: { in: ids } },
    select: { id: true, phoneNumberId: true, phoneNumber: true, wabaId: true },
  });
  return new Map(
    senders
      .filter((s) => s.phoneNumberId)
      .map((s) => [s.id, { phoneNumberId: s.phoneNumberId ?? "", phoneNumber: s.phoneNumber, wabaId: s.wabaId }]),
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Refusals of the bytes themselves: another attempt would fetch the same bytes. */
const PERMANENT_CODES = new Set(["MEDIA_TYPE_NOT_SUPPORTED", "MEDIA_TOO_LARGE"]);

/** Downloads one claimed file and keeps it; what became of it. */
async function fetchOne(
  row: Claimed,
  sender: ProviderSender | undefined,
  provider: ProviderMediaDownloads,
): Promise<Outcome> {
  if (!sender) return { status: "unavailable", reason: "The number it was sent to is no longer connected" };
  let staged: StagedFile | undefined;
  try {
    const description = await provider.describeMedia(sender, row.providerMediaId);
    const body = await provider.downloadMedia(
      sender,
      description.url,
      AbortSignal.timeout(env().MEDIA_FETCH_TIMEOUT_MS),
    );
    staged = await stageFile(body, { declaredType: row.mimeType, filename: row.filename });
    const announced = row.sha256 ?? sha256Hex(description.sha256);
    if (announced && staged.sha256 !== announced) {
      return {
        status: "unavailable",
        reason: `The downloaded file's SHA-256 (${staged.sha256}) is not the one the provider announced (${announced.slice(0, 64)})`,
      };
    }
    return await keep(row, staged);
  } catch (error) {
    if (error instanceof ProviderMediaError && error.permanent) return { status: "unavailable", reason: error.message };
    if (error instanceof ApiError && PERMANENT_CODES.has(error.code)) {
      return { status: "unavailable", reason: error.message };
    }
    return { status: "retry", error: messageOf(error) };
  } finally {
    await staged?.discard().catch(() => {});
  }
}

/**
 * Keeps the staged file: the record takes its reference (under its lease), the bytes are put
 * in the store, and the record becomes ready. A worker that dies between the steps leaves the
 * record pending with its reference; the next holder puts the bytes and finishes.
 */
async function keep(row: Claimed, staged: StagedFile): Promise<Outcome> {
  const ref: ObjectRef = {
    id: row.id,
    customerId: row.customerId,
    sha256: staged.sha256,
    size: staged.size,
    mimeType: staged.type.mimeType,
  };
  const held = await db.$transaction(async (tx) => {
    const owned = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM "Media" WHERE "id" = $1 AND "customerId" = $2 AND "status" = 'pending'
         AND "lockedUntil" = $3::timestamp(3) FOR UPDATE`,
      row.id,
      row.customerId,
      row.lease,
    );
    if (owned.length === 0) return false;
    // Files a contact sends are kept past the quota (docs/configuration.md MEDIA_QUOTA_MB).
    await takeReference(tx, ref);
    return true;
  });
  if (!held) return { status: "lost" };
  await putObject(ref, staged.path);
  return { status: "ready", mimeType: staged.type.mimeType };
}

/** Records one claim's outcome under its lease and tells the open dashboards; false when the lease was lost. */
async function finish(row: Claimed, outcome: Outcome, options: MediaWorkerOptions): Promise<number | null> {
  if (outcome.status === "lost") return null;
  if (outcome.status === "ready") {
    const changed = await db.$transaction(async (tx) => {
      const [done] = await tx.$queryRawUnsafe<{ senderId: string | null }[]>(
        `UPDATE "Media" SET "status" = 'ready', "mimeType" = $4, "readyAt" = ${NOW_UTC}, "lockedUntil" = NULL, "nextAttemptAt" = NULL, "lastError" = NULL,
           "updatedAt" = ${NOW_UTC}
         WHERE "id" = $1 AND "customerId" = $2 AND "status" = 'pending' AND "lockedUntil" = $3::timestamp(3)
         RETURNING "senderId"`,
        row.id,
        row.customerId,
        row.lease,
        outcome.mimeType,
      );
      if (done?.senderId) await publishLive(tx, row.customerId, [mediaNotice(done.senderId, row.id, "ready")]);
      return done !== undefined;
    });
    return changed ? 0 : null;
  }
  const pastDeadline = row.fetchDeadline !== null && row.fetchDeadline.getTime() <= Date.now();
  if (outcome.status === "retry" && !pastDeadline) {
    const base = options.retryBaseMs ?? env().MEDIA_FETCH_RETRY_BASE_MS;
    const delayMs = Math.max(Math.min(base, 1_000), retryDelayMs(row.attempts, base, options.maxRetryMs ?? 1_800_000));
    const count = await db.$executeRawUnsafe(
      `UPDATE "Media" SET "lockedUntil" = NULL, "lastError" = $4,
         "nextAttemptAt" = LEAST(${NOW_UTC} + ($5 * interval '1 millisecond'), COALESCE("fetchDeadline", 'infinity')),
         "updatedAt" = ${NOW_UTC}
       WHERE "id" = $1 AND "customerId" = $2 AND "status" = 'pending' AND "lockedUntil" = $3::timestamp(3)`,
      row.id,
      row.customerId,
      row.lease,
      outcome.error,
      delayMs,
    );
    if (count === 1)
      log.warn({ mediaId: row.id, error: outcome.error, retryInMs: delayMs }, "inbound media not fetched; will retry");
    return count === 1 ? delayMs : null;
  }
  const reason =
    outcome.status === "unavailable"
      ? outcome.reason
      : `Not fetched from the provider within 6 hours of its arrival (${row.attempts} attempts): ${outcome.error}`;
  const [owned] = await db.$queryRawUnsafe<{ senderId: string | null }[]>(
    `SELECT "senderId" FROM "Media" WHERE "id" = $1 AND "customerId" = $2 AND "status" = 'pending'
       AND "lockedUntil" = $3::timestamp(3)`,
    row.id,
    row.customerId,
    row.lease,
  );
  if (!owned) return null;
  await dropReference(row.id, row.customerId, "unavailable", reason.slice(0, 500));
  log.warn({ mediaId: row.id, reason }, "inbound media unavailable");
  if (owned.senderId) await publishLive(db, row.customerId, [mediaNotice(owned.senderId, row.id, "unavailable")]);
  return 0;
}

const mediaNotice = (senderId: string, mediaId: string, status: string) =>
  ({ kind: "media.status", senderId, mediaId, status }) as const;

/**
 * One pass: claims due inbound files and fetches them together. Returns how many were claimed
 * and the earliest retry it scheduled (ms from now), if any.
 */
export async function fetchDueMedia(
  options: MediaWorkerOptions = {},
): Promise<{ claimed: number; retryInMs: number | null }> {
  const provider = options.provider ?? getProvider();
  const leaseMs = options.leaseMs ?? leaseFor(env().MEDIA_FETCH_TIMEOUT_MS);
  const rows = await claimDownloads(options.batchSize ?? DEFAULT_BATCH, leaseMs, options.customerIds ?? null);
  if (rows.length === 0) return { claimed: 0, retryInMs: null };
  const senders = await sendersOf(rows);
  const retries = await Promise.all(
    rows.map(async (row) => {
      let outcome: Outcome;
      try {
        outcome = await fetchOne(row, row.senderId ? senders.get(row.senderId) : undefined, provider);
      } catch (error) {
        log.error({ err: error, mediaId: row.id }, "inbound media fetch failed unexpectedly");
        outcome = { status: "retry", error: "internal error" };
      }
      const retry = await finish(row, outcome, options);
      if (retry === null) log.warn({ mediaId: row.id }, "inbound media lease lost");
      return retry && retry > 0 ? retry : null;
    }),
  );
  const scheduled = retries.filter((r): r is number => r !== null);
  return { claimed: rows.length, retryInMs: scheduled.length > 0 ? Math.min(...scheduled) : null };
}

/** The media worker as a definition for the worker loop (lib/background.ts): woken by NOTIFY "media". */
export function mediaWorker(options: MediaWorkerOptions = {}): WorkerDefinition {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  let retryAt = Number.POSITIVE_INFINITY;
  return {
    name: "media worker",
    wakeOn: [wakeupsOn("media")],
    sleep: options.sleep,
    pollMs: options.pollMs ?? Math.max(250, env().WORKER_POLL_MS),
    pass: async () => {
      if (retryAt <= Date.now()) retryAt = Number.POSITIVE_INFINITY;
      const { claimed, retryInMs } = await fetchDueMedia({ ...options, batchSize });
      if (retryInMs !== null) retryAt = Math.min(retryAt, Date.now() + retryInMs);
      if (claimed >= batchSize) return MORE;
      return retryAt === Number.POSITIVE_INFINITY ? IDLE : { more: false, sleepMs: retryAt - Date.now() };
    },
  };
}

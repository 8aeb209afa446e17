// Idempotency-Key on sends and creates (docs/idempotency.md): the first result of a key is
// stored and replayed for a retry with the same body; the same key with another body is
// refused. Failed attempts release the key so that a retry really runs again. A key whose
// first request never finished (its process stopped) is "in progress" for a lease of
// minutes, not for the key's whole 24 hours; after it, a key whose request recorded a message
// is answered from that message (key-run.ts), any other is free again.
import { createHash } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/core/crypto/secret-box";
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import type { IdempotencyKey, Prisma } from "@/lib/generated/prisma/client";
import { type KeyRun, runUnderKey } from "./key-run";

export const IDEMPOTENCY_HEADER = "idempotency-key";
const TTL_MS = 24 * 60 * 60 * 1000;
/** How long a first request may hold its key unanswered (a send takes seconds at most). */
export const IN_PROGRESS_LEASE_MS = 5 * 60 * 1000;
const STORE_TRIES = 3;

export type StoredResponse = {
  status: number;
  headers: Record<string, string>;
  /** Envelope routes store message and data; provider-compatible routes the raw body. */
  message?: string;
  data?: unknown;
  raw?: unknown;
  /** Top-level siblings of data in the envelope (webhook create's signingSecret). */
  extra?: Record<string, unknown>;
};

/**
 * Stored answers are encrypted at rest (lib/core/crypto/secret-box): a replayed create answers
 * what the first did, a webhook's one-time signing secret included, so the stored copy is
 * a secret (docs/idempotency.md).
 */
type SealedResponse = { sealed: string };

const seal = (stored: StoredResponse): SealedResponse => ({ sealed: encryptSecret(JSON.stringify(stored)) });

function unseal(response: unknown): StoredResponse {
  const r = response as Partial<SealedResponse> & StoredResponse;
  // Rows written before answers were sealed hold the answer itself.
  return typeof r.sealed === "string" ? (JSON.parse(decryptSecret(r.sealed)) as StoredResponse) : r;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  // A Date (or anything with toJSON) has no own keys: hash what it serialises to, so two
  // bodies that differ only in a parsed date never share a fingerprint.
  if (value && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return JSON.stringify(value);
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Same route (any version) and same body: same fingerprint. */
export function fingerprint(routeKey: string, body: unknown): string {
  return createHash("sha256")
    .update(`${routeKey}\n${stable(body)}`)
    .digest("hex");
}

export function idempotencyKeyFrom(request: Request): string | undefined {
  const key = request.headers.get(IDEMPOTENCY_HEADER)?.trim();
  if (key === undefined || key === "") return undefined;
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError("VALIDATION_FAILED", "Idempotency-Key must be 1-255 visible ASCII characters", {
      fields: [{ path: "header.Idempotency-Key", message: "1-255 visible ASCII characters" }],
    });
  }
  return key;
}

export type IdempotentResult = StoredResponse & { replayed: boolean };

export async function withIdempotency(
  customerId: string,
  key: string | undefined,
  requestHash: string | (() => string),
  run: () => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  if (!key) return { ...(await run()), replayed: false };
  const claimed = await claim(customerId, key, typeof requestHash === "string" ? requestHash : requestHash());
  if (claimed.kind === "replay") return { ...claimed.stored, replayed: true };
  const keyRun: KeyRun = {
    id: claimed.id,
    customerId,
    earlier: claimed.earlier?.messageId ?? null,
    hold: claimed.earlier !== null,
    answeredFromEarlier: false,
    linked: false,
  };
  let stored: StoredResponse;
  try {
    stored = await runUnderKey(keyRun, run);
  } catch (error) {
    if (claimed.earlier && keyRun.hold) {
      // Bound to a message that may have reached the provider: the key stays as it was
      // (abandoned, linked), so the next retry answers from the message again.
      await db.idempotencyKey
        .updateMany({ where: { id: claimed.id, customerId, status: null }, data: { createdAt: claimed.earlier.since } })
        .catch(() => {});
    } else await db.idempotencyKey.deleteMany({ where: { id: claimed.id, customerId } }).catch(() => {});
    throw error;
  }
  // The work is done (a send may have reached the provider): its answer is given whatever
  // storing it meets, and the key is never released here (a retry would run it again).
  await storeAnswer(customerId, claimed.id, stored);
  return { ...stored, replayed: keyRun.answeredFromEarlier };
}

async function storeAnswer(customerId: string, id: string, stored: StoredResponse): Promise<void> {
  for (let attempt = 1; attempt <= STORE_TRIES; attempt++) {
    try {
      await db.idempotencyKey.updateMany({
        where: { id, customerId },
        data: { status: stored.status, response: seal(stored) as unknown as Prisma.InputJsonValue },
      });
      return;
    } catch (error) {
      if (attempt === STORE_TRIES) {
        log.error({ err: error, idempotencyKeyId: id }, "idempotent answer not stored; the key stays in progress");
      } else await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

type Claim =
  | { kind: "run"; id: string; earlier: { messageId: string; since: Date } | null }
  | { kind: "replay"; stored: StoredResponse };

async function claim(customerId: string, key: string, requestHash: string, again = true): Promise<Claim> {
  const { count } = await db.idempotencyKey.createMany({
    data: [{ customerId, key, requestHash }],
    skipDuplicates: true,
  });
  const row = await db.idempotencyKey.findUnique({ where: { customerId_key: { customerId, key } } });
  if (!row) {
    if (again) return claim(customerId, key, requestHash, false);
    throw new ApiError(
      "IDEMPOTENCY_KEY_IN_PROGRESS",
      "This Idempotency-Key is being processed; retry shortly",
      {},
      { "Retry-After": "1" },
    );
  }
  if (count === 1 && row.requestHash === requestHash && row.status === null) {
    return { kind: "run", id: row.id, earlier: null };
  }
  const age = Date.now() - row.createdAt.getTime();
  const abandoned = row.status === null && age > IN_PROGRESS_LEASE_MS;
  if (abandoned && row.messageId !== null && age <= TTL_MS) return resume(row, row.messageId, requestHash);
  if ((age > TTL_MS || abandoned) && again) {
    await db.idempotencyKey.deleteMany({
      where: { id: row.id, customerId, ...(abandoned ? { status: null } : {}) },
    });
    return claim(customerId, key, requestHash, false);
  }
  if (row.requestHash !== requestHash) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was used with a different request; use a new key for a new request",
      { idempotencyKey: key },
    );
  }
  if (row.status === null || row.response === null) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_IN_PROGRESS",
      "The first request with this Idempotency-Key is still running; retry shortly",
      { idempotencyKey: key },
      { "Retry-After": "1" },
    );
  }
  return { kind: "replay", stored: unseal(row.response) };
}

/**
 * A key whose first run recorded a message and never answered (its process stopped) is bound
 * to that message: the same request takes the run over (one retry at a time: the lease is
 * renewed only if no other retry renewed it first) and answers from the message; another
 * request with the key is IDEMPOTENCY_KEY_REUSED.
 */
async function resume(row: IdempotencyKey, messageId: string, requestHash: string): Promise<Claim> {
  if (row.requestHash !== requestHash) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was used with a different request; use a new key for a new request",
      { idempotencyKey: row.key },
    );
  }
  const { count } = await db.idempotencyKey.updateMany({
    where: { id: row.id, customerId: row.customerId, status: null, createdAt: row.createdAt },
    data: { createdAt: new Date() },
  });
  if (count === 0) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_IN_PROGRESS",
      "A retry with this Idempotency-Key is running; retry shortly",
      { idempotencyKey: row.key },
      { "Retry-After": "1" },
    );
  }
  return { kind: "run", id: row.id, earlier: { messageId, since: row.createdAt } };
}

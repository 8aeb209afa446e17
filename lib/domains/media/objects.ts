// The stored files of an account and the media records that hold them (docs/media.md
// "Storage"): content-addressed keys, one MediaObject row per file counting its references,
// the account's usage. A record takes its reference before its bytes are put (so a removal of
// the same file, which happens inside the transaction that drops the last reference, can never
// remove what a new record is about to hold) and gives it back when it is deleted or expires.
import { db, type Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { getStorage } from "@/lib/storage";
import { quotaExceeded } from "./staging";

/** The store key of an account's file: sharded by the hash's first byte. */
export const objectKey = (customerId: string, sha256: string) => `${customerId}/${sha256.slice(0, 2)}/${sha256}`;

export type ObjectRef = { id: string; customerId: string; sha256: string; size: number; mimeType: string };

/**
 * Inside `tx`: the record takes its reference to the file (once: a record that holds one
 * already takes none), creating the file's row and adding its size to the account's usage
 * when it is the first. With `quotaBytes`, a new file past the quota is MEDIA_QUOTA_EXCEEDED
 * (the transaction rolls back).
 */
export async function takeReference(tx: Tx, ref: ObjectRef, quotaBytes?: number): Promise<void> {
  const took = await tx.$executeRawUnsafe(
    `UPDATE "Media" SET "holdsObject" = true, "sha256" = $3, "fileSize" = $4, "updatedAt" = ${NOW_UTC}
     WHERE "id" = $1 AND "customerId" = $2 AND NOT "holdsObject"`,
    ref.id,
    ref.customerId,
    ref.sha256,
    ref.size,
  );
  if (took === 0) return;
  const [object] = await tx.$queryRawUnsafe<{ refs: number }[]>(
    `INSERT INTO "MediaObject" ("customerId", "sha256", "size", "mimeType", "refs") VALUES ($1, $2, $3, $4, 1)
     ON CONFLICT ("customerId", "sha256") DO UPDATE SET "refs" = "MediaObject"."refs" + 1
     RETURNING "refs"`,
    ref.customerId,
    ref.sha256,
    ref.size,
    ref.mimeType,
  );
  if (object?.refs !== 1) return;
  const [usage] = await tx.$queryRawUnsafe<{ bytes: bigint }[]>(
    `INSERT INTO "MediaUsage" ("customerId", "bytes", "updatedAt") VALUES ($1, $2, ${NOW_UTC})
     ON CONFLICT ("customerId") DO UPDATE SET "bytes" = "MediaUsage"."bytes" + EXCLUDED."bytes", "updatedAt" = ${NOW_UTC}
     RETURNING "bytes"`,
    ref.customerId,
    ref.size,
  );
  const used = Number(usage?.bytes ?? 0);
  if (quotaBytes !== undefined && used > quotaBytes) throw quotaExceeded(quotaBytes, used - ref.size, ref.size);
}

/**
 * Puts the staged file under its key unless the store has it already (a record of the same
 * bytes may be putting it too: both write the same bytes, which both engines allow).
 */
export async function putObject(ref: ObjectRef, file: string): Promise<void> {
  const store = getStorage();
  const key = objectKey(ref.customerId, ref.sha256);
  if (await store.stat(key)) return;
  await store.putFile(key, file, { contentType: ref.mimeType, size: ref.size });
}

/**
 * The record gives its reference back and takes `status` (deleted, expired, or gone for an
 * upload that failed); the last reference removes the file from the store, inside the
 * transaction that drops it, and its size from the account's usage. False when the record
 * held none (its status is still set).
 */
export async function dropReference(
  mediaId: string,
  customerId: string,
  status: "deleted" | "expired" | "unavailable",
  reason?: string,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const [media] = await tx.$queryRawUnsafe<{ sha256: string | null; holdsObject: boolean }[]>(
      `SELECT "sha256", "holdsObject" FROM "Media" WHERE "id" = $1 AND "customerId" = $2 FOR UPDATE`,
      mediaId,
      customerId,
    );
    await tx.$executeRawUnsafe(
      `UPDATE "Media" SET "status" = $3, "unavailableReason" = COALESCE($4, "unavailableReason"),
         "holdsObject" = false, "lockedUntil" = NULL, "nextAttemptAt" = NULL, "updatedAt" = ${NOW_UTC}
       WHERE "id" = $1 AND "customerId" = $2`,
      mediaId,
      customerId,
      status,
      reason ?? null,
    );
    if (!media?.holdsObject || !media.sha256) return false;
    const [object] = await tx.$queryRawUnsafe<{ refs: number; size: number }[]>(
      `UPDATE "MediaObject" SET "refs" = "refs" - 1 WHERE "customerId" = $1 AND "sha256" = $2 RETURNING "refs", "size"`,
      customerId,
      media.sha256,
    );
    if (!object || object.refs > 0) return true;
    await getStorage().remove(objectKey(customerId, media.sha256));
    await tx.$executeRawUnsafe(
      `DELETE FROM "MediaObject" WHERE "customerId" = $1 AND "sha256" = $2 AND "refs" <= 0`,
      customerId,
      media.sha256,
    );
    await tx.$executeRawUnsafe(
      `UPDATE "MediaUsage" SET "bytes" = GREATEST(0, "bytes" - $2), "updatedAt" = ${NOW_UTC} WHERE "customerId" = $1`,
      customerId,
      object.size,
    );
    return true;
  });
}

/** The bytes an account keeps (its stored files), for the quota and the account page. */
export async function usedBytes(customerId: string): Promise<number> {
  const usage = await db.mediaUsage.findUnique({ where: { customerId } });
  return Number(usage?.bytes ?? 0);
}

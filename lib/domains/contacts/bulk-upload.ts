// Bulk upload into one contact book: rows are checked one by one (a bad row is reported
// as {index, error_code, message} and the good rows are still stored), then every good
// row is upserted by phone number in ONE statement inside one transaction.
//
// Upsert rules: a new number creates a contact; a known number updates it. A name or
// email that is not given (omitted, null or "") keeps the stored value; custom fields
// are merged into the stored ones. Within one upload the first row of a phone number
// wins and later rows with the same (normalised) number are reported as
// DUPLICATE_PHONE_NUMBER, so received = created + updated + failed always holds.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { requireContactBook } from "./books";
import { listContactFields } from "./fields";
import { type CleanRow, checkRow } from "./row-values";
import type { FieldTypeValue, RowErrorCode } from "./schemas";

export type RowError = { index: number; error_code: RowErrorCode; message: string };
export type BulkUploadResult = {
  received: number;
  created: number;
  updated: number;
  failed: number;
  errors: RowError[];
};

/**
 * Row ids shaped like Prisma's cuid() (c + time + sequence + randomness), made in bulk;
 * the sequence keeps one upload's rows in upload order when sorted by id.
 */
function idMaker(): () => string {
  const time = Date.now().toString(36);
  let seq = 0;
  return () => {
    seq += 1;
    const random = randomBytes(6).toString("hex");
    return `c${time}${seq.toString(36).padStart(4, "0")}${random}`;
  };
}

export function sortRows(
  rows: readonly unknown[],
  fieldTypes: ReadonlyMap<string, FieldTypeValue>,
): { good: CleanRow[]; errors: RowError[] } {
  const good: CleanRow[] = [];
  const errors: RowError[] = [];
  const firstIndex = new Map<string, number>();
  rows.forEach((raw, index) => {
    const check = checkRow(raw, fieldTypes);
    if (!check.ok) {
      errors.push({ index, ...check.problem });
      return;
    }
    const seen = firstIndex.get(check.row.phoneNumber);
    if (seen !== undefined) {
      errors.push({
        index,
        error_code: "DUPLICATE_PHONE_NUMBER",
        message: `${check.row.phoneNumber} already appears in row ${seen} of this upload`,
      });
      return;
    }
    firstIndex.set(check.row.phoneNumber, index);
    good.push(check.row);
  });
  return { good, errors };
}

export async function bulkUploadContacts(
  p: Principal,
  bookUid: string,
  rows: readonly unknown[],
): Promise<BulkUploadResult> {
  return db.$transaction(
    async (tx) => {
      const book = await requireContactBook(p, bookUid, tx);
      const fields = await listContactFields(p, tx);
      const { good, errors } = sortRows(rows, new Map(fields.map((f) => [f.key, f.type])));
      let created = 0;
      let updated = 0;
      if (good.length > 0) {
        const newId = idMaker();
        const payload = JSON.stringify(good.map((r) => ({ id: newId(), ...r })));
        // One INSERT ... ON CONFLICT for all rows; xmax = 0 marks a freshly inserted row.
        // The book join keeps the customer in the statement itself.
        const [counts] = await tx.$queryRaw<{ created: number; updated: number }[]>`
          WITH up AS (
            INSERT INTO "Contact" ("id", "customerId", "contactBookId", "phoneNumber", "name", "email",
                                   "customFields", "createdAt", "updatedAt")
            SELECT r."id", b."customerId", b."id", r."phoneNumber", r."name", r."email",
                   COALESCE(r."customFields", '{}'::jsonb), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
            FROM jsonb_to_recordset(${payload}::jsonb)
                   AS r("id" text, "phoneNumber" text, "name" text, "email" text, "customFields" jsonb),
                 "ContactBook" b
            WHERE b."id" = ${book.id} AND b."customerId" = ${p.customerId}
            ON CONFLICT ("contactBookId", "phoneNumber") DO UPDATE SET
              "name" = COALESCE(EXCLUDED."name", "Contact"."name"),
              "email" = COALESCE(EXCLUDED."email", "Contact"."email"),
              "customFields" = "Contact"."customFields" || EXCLUDED."customFields",
              "updatedAt" = now() AT TIME ZONE 'UTC'
            WHERE "Contact"."customerId" = EXCLUDED."customerId"
            RETURNING (xmax = 0) AS inserted
          )
          SELECT (count(*) FILTER (WHERE inserted))::int AS created,
                 (count(*) FILTER (WHERE NOT inserted))::int AS updated
          FROM up`;
        created = counts?.created ?? 0;
        updated = counts?.updated ?? 0;
      }
      return { received: rows.length, created, updated, failed: errors.length, errors };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

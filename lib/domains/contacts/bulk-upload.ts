// Bulk upload into one contact book: rows are checked one by one (a bad row is reported
// as {index, error_code, message} and the good rows are still stored), then every good
// row is upserted by phone number in ONE statement inside one transaction.
//
// Upsert rules: a new number creates a contact; a known number updates it. A name or
// email that is not given (omitted, null or "") keeps the stored value; custom fields
// are merged into the stored ones. Within one upload the first row of a phone number
// wins and later rows with the same (normalised) number are reported as
// DUPLICATE_PHONE_NUMBER naming the first one's row, so received = created + updated +
// failed always holds. An upload is one request, or every request that gives the same
// `uploadId` (a file the dashboard sends in chunks): each written contact keeps the upload
// and its row (Contact.uploadId, uploadRow), and the statement leaves a contact that this
// upload already wrote alone, so a number repeated in a later chunk is refused as it is
// inside one (docs/api/contact-books.md "Bulk upload").
import { randomBytes } from "node:crypto";
import { db, type Tx } from "@/lib/db";
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
/** Which upload the rows belong to and where each is in its file (BulkUploadBody). */
export type UploadPlace = { uploadId?: string; rowNumbers?: readonly number[] };

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

/** A good row with where it came from: its index in the request and its row in the file. */
type PlacedRow = CleanRow & { index: number; row: number };

const duplicate = (index: number, phoneNumber: string, firstRow: number | null): RowError => ({
  index,
  error_code: "DUPLICATE_PHONE_NUMBER",
  message:
    firstRow === null
      ? `${phoneNumber} already appears earlier in this upload`
      : `${phoneNumber} already appears in row ${firstRow} of this upload`,
});

/** The rows' own checks and the duplicates inside the request (the first row of a number wins). */
export function sortRows(
  rows: readonly unknown[],
  fieldTypes: ReadonlyMap<string, FieldTypeValue>,
  rowNumbers?: readonly number[],
): { good: PlacedRow[]; errors: RowError[] } {
  const good: PlacedRow[] = [];
  const errors: RowError[] = [];
  const firstRow = new Map<string, number>();
  rows.forEach((raw, index) => {
    const check = checkRow(raw, fieldTypes);
    if (!check.ok) {
      errors.push({ index, ...check.problem });
      return;
    }
    const seen = firstRow.get(check.row.phoneNumber);
    if (seen !== undefined) {
      errors.push(duplicate(index, check.row.phoneNumber, seen));
      return;
    }
    const row = rowNumbers?.[index] ?? index + 1;
    firstRow.set(check.row.phoneNumber, row);
    good.push({ ...check.row, index, row });
  });
  return { good, errors };
}

export async function bulkUploadContacts(
  p: Principal,
  bookUid: string,
  rows: readonly unknown[],
  place: UploadPlace = {},
): Promise<BulkUploadResult> {
  // Without an id the request is an upload of its own.
  const uploadId = place.uploadId ?? `u${randomBytes(12).toString("base64url")}`;
  return db.$transaction(
    async (tx) => {
      const book = await requireContactBook(p, bookUid, tx);
      const fields = await listContactFields(p, tx);
      const { good, errors } = sortRows(rows, new Map(fields.map((f) => [f.key, f.type])), place.rowNumbers);
      let created = 0;
      let updated = 0;
      if (good.length > 0) {
        const newId = idMaker();
        const payload = JSON.stringify(
          good.map(({ index: _index, row, ...r }) => ({ id: newId(), ...r, uploadRow: row })),
        );
        // One INSERT ... ON CONFLICT for all rows; xmax = 0 marks a freshly inserted row.
        // The book join keeps the customer in the statement itself. A contact this upload
        // already wrote is left alone (no row returned): that row is a duplicate.
        const written = await tx.$queryRaw<{ phoneNumber: string; inserted: boolean }[]>`
          INSERT INTO "Contact" ("id", "customerId", "contactBookId", "phoneNumber", "name", "email",
                                 "customFields", "uploadId", "uploadRow", "createdAt", "updatedAt")
          SELECT r."id", b."customerId", b."id", r."phoneNumber", r."name", r."email",
                 COALESCE(r."customFields", '{}'::jsonb), ${uploadId}, r."uploadRow",
                 now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
          FROM jsonb_to_recordset(${payload}::jsonb)
                 AS r("id" text, "phoneNumber" text, "name" text, "email" text, "customFields" jsonb,
                      "uploadRow" int),
               "ContactBook" b
          WHERE b."id" = ${book.id} AND b."customerId" = ${p.customerId}
          ON CONFLICT ("contactBookId", "phoneNumber") DO UPDATE SET
            "name" = COALESCE(EXCLUDED."name", "Contact"."name"),
            "email" = COALESCE(EXCLUDED."email", "Contact"."email"),
            "customFields" = "Contact"."customFields" || EXCLUDED."customFields",
            "uploadId" = EXCLUDED."uploadId",
            "uploadRow" = EXCLUDED."uploadRow",
            "updatedAt" = now() AT TIME ZONE 'UTC'
          WHERE "Contact"."customerId" = EXCLUDED."customerId"
            AND "Contact"."uploadId" IS DISTINCT FROM EXCLUDED."uploadId"
          RETURNING "phoneNumber", (xmax = 0) AS inserted`;
        const writtenNumbers = new Set<string>();
        for (const w of written) {
          writtenNumbers.add(w.phoneNumber);
          if (w.inserted) created += 1;
          else updated += 1;
        }
        const repeated = good.filter((r) => !writtenNumbers.has(r.phoneNumber));
        if (repeated.length > 0)
          errors.push(...(await repeatsOfUpload(tx, { id: book.id, customerId: p.customerId }, uploadId, repeated)));
        errors.sort((a, b) => a.index - b.index);
      }
      return { received: rows.length, created, updated, failed: errors.length, errors };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/** Rows whose number an earlier request of the upload stored: refused with that request's row. */
async function repeatsOfUpload(
  tx: Tx,
  book: { id: string; customerId: string },
  uploadId: string,
  repeated: PlacedRow[],
): Promise<RowError[]> {
  const first = await tx.contact.findMany({
    where: {
      customerId: book.customerId,
      contactBookId: book.id,
      uploadId,
      phoneNumber: { in: repeated.map((r) => r.phoneNumber) },
    },
    select: { phoneNumber: true, uploadRow: true },
  });
  const rowOf = new Map(first.map((c) => [c.phoneNumber, c.uploadRow]));
  return repeated.map((r) => duplicate(r.index, r.phoneNumber, rowOf.get(r.phoneNumber) ?? null));
}

// CSV export of the billing explorer's filtered set, in its sort order, as a stream.
// Keyset pagination (WHERE (sort column, id) past the last row sent, LIMIT a batch)
// keeps every batch an index range scan however deep the export goes, and the stream
// pulls the next batch only when the reader has taken the previous one: a million
// rows export with a few batches in memory at most.
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  assertPhoneNumberIdAllowed,
  assertSenderInScope,
  billingOrder,
  billingWhere,
  recordColumns,
  SORT_COLUMNS,
} from "./filters-sql";
import {
  type BillingExportInput,
  type BillingSortField,
  PUBLIC_BILLING_RECORD_FIELDS,
  type SortOrder,
} from "./schemas";
import { type BillingRecordRow, toPublicBillingRecord } from "./serializers";

export const CSV_BATCH_SIZE = 2_000;

/** The fields of the public record, in the order of docs/api/billing.md. */
export const CSV_COLUMNS = PUBLIC_BILLING_RECORD_FIELDS;

type Cursor = { value: unknown; id: string };

const CASTS: Record<BillingSortField, string> = {
  created_at: "::timestamp(3)",
  message_timestamp: "::timestamp(3)",
  pricing_category: "",
  status: "",
  rate: "::numeric",
};

function cursorValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Rows strictly after the cursor in (column, id) order; NULLs last ascending, first descending. */
export function afterCursor(sortBy: BillingSortField, order: SortOrder, cursor: Cursor): Prisma.Sql {
  const col = Prisma.raw(`b."${SORT_COLUMNS[sortBy]}"`);
  const cast = Prisma.raw(CASTS[sortBy]);
  const v = cursorValue(cursor.value);
  const cmp = Prisma.raw(order === "ASC" ? ">" : "<");
  if (sortBy !== "pricing_category" || v !== null) {
    const beyond = Prisma.sql`(${col}, b."id") ${cmp} (${v}${cast}, ${cursor.id})`;
    if (sortBy !== "pricing_category") return beyond;
    // Non-null so far: ascending, the NULLs are still to come; descending, they were first.
    return order === "ASC" ? Prisma.sql`(${beyond} OR ${col} IS NULL)` : beyond;
  }
  // The cursor sits among the NULLs.
  return order === "ASC"
    ? Prisma.sql`(${col} IS NULL AND b."id" > ${cursor.id})`
    : Prisma.sql`((${col} IS NULL AND b."id" < ${cursor.id}) OR ${col} IS NOT NULL)`;
}

export function csvBatchSql(
  p: Principal,
  sender: Sender | undefined,
  q: BillingExportInput,
  cursor: Cursor | undefined,
  size = CSV_BATCH_SIZE,
): Prisma.Sql {
  const where = billingWhere(p.customerId, sender, q);
  const after = cursor ? Prisma.sql` AND ${afterCursor(q.sortBy, q.sortOrder, cursor)}` : Prisma.empty;
  return Prisma.sql`SELECT ${recordColumns("b")} FROM "BillingRecord" b WHERE ${where}${after}
    ORDER BY ${billingOrder(q.sortBy, q.sortOrder)} LIMIT ${size}`;
}

function toCsv(rows: BillingRecordRow[], header: boolean): string {
  return stringify(rows.map(toPublicBillingRecord), {
    header,
    columns: [...CSV_COLUMNS],
    cast: { boolean: (value) => (value ? "true" : "false") },
  });
}

/** Header + one line per record of the filtered set; pulls batches on demand. */
export function streamBillingCsv(
  p: Principal,
  sender: Sender | undefined,
  q: BillingExportInput,
  batchSize = CSV_BATCH_SIZE,
): ReadableStream<Uint8Array> {
  assertSenderInScope(p, sender);
  assertPhoneNumberIdAllowed(p, sender, q.phoneNumberId);
  const encoder = new TextEncoder();
  const column = SORT_COLUMNS[q.sortBy] as keyof BillingRecordRow;
  let cursor: Cursor | undefined;
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const rows = await db.$queryRaw<BillingRecordRow[]>(csvBatchSql(p, sender, q, cursor, batchSize));
        if (first || rows.length > 0) controller.enqueue(encoder.encode(toCsv(rows, first)));
        first = false;
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) {
          controller.close();
          return;
        }
        cursor = { value: last[column], id: last.id };
      },
    },
    { highWaterMark: 1 },
  );
}

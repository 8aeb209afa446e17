// A broadcast's recipients as CSV (the dashboard's export, docs/broadcasts.md "For the
// dashboard"): the filtered recipients in id order, streamed batch by batch as the audit log
// and billing exports are (the next batch is read only when the reader took the last), with
// a failure's provider meaning beside its code.
import { stringify } from "csv-stringify/sync";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { providerErrorMeaning } from "@/lib/domains/provider/error-meanings";
import type { BroadcastRecipient, Prisma } from "@/lib/generated/prisma/client";
import type { RecipientExportQuery } from "./schemas";
import { toPublicRecipient } from "./serializers";
import { getBroadcast } from "./service";

export const RECIPIENT_CSV_COLUMNS = [
  "phoneNumber",
  "status",
  "skipReason",
  "errorCode",
  "errorMeaning",
  "replied",
  "providerMessageId",
  "updatedAt",
] as const;

function toCsv(rows: BroadcastRecipient[], header: boolean): string {
  return stringify(
    rows.map((row) => {
      const r = toPublicRecipient(row);
      return {
        phoneNumber: r.phoneNumber,
        status: r.status,
        skipReason: r.skipReason ?? "",
        errorCode: r.errorCode ?? "",
        errorMeaning: r.errorCode === null ? "" : providerErrorMeaning(r.errorCode).title,
        replied: r.replied ? "yes" : "no",
        providerMessageId: r.providerMessageId ?? "",
        updatedAt: r.updatedAt,
      };
    }),
    { header, columns: [...RECIPIENT_CSV_COLUMNS] },
  );
}

async function* recipientBatches(where: Prisma.BroadcastRecipientWhereInput, batchSize: number) {
  let after: bigint | undefined;
  for (;;) {
    const page = await db.broadcastRecipient.findMany({
      where: after === undefined ? where : { AND: [where, { id: { gt: after } }] },
      orderBy: { id: "asc" },
      take: batchSize,
    });
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < batchSize || !last) return;
    after = last.id;
  }
}

/**
 * The broadcast is looked up first (BROADCAST_NOT_FOUND for another customer's uid, before
 * any byte is sent); then the stream, with the list's filters.
 */
export async function recipientsCsv(
  p: Principal,
  uid: string,
  query: RecipientExportQuery,
  batchSize = 1000,
): Promise<ReadableStream<Uint8Array>> {
  const broadcast = await getBroadcast(p, undefined, uid);
  const search = query.search?.replace(/[^0-9+]/g, "");
  const where: Prisma.BroadcastRecipientWhereInput = {
    broadcastId: broadcast.id,
    customerId: p.customerId,
    ...(query.status ? { status: query.status } : {}),
    ...(search ? { phoneNumber: { contains: search } } : {}),
  };
  const encoder = new TextEncoder();
  const batches = recipientBatches(where, batchSize);
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await batches.next();
        const rows = next.done ? [] : next.value;
        if (first || rows.length > 0) controller.enqueue(encoder.encode(toCsv(rows, first)));
        first = false;
        if (next.done) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}

// The callback dead-letter list: stored provider callbacks that still failed to apply
// after MAX_ATTEMPTS (deadAt set). The operator lists them and, once the cause is fixed,
// puts them back (`callbacks:dead`, `callbacks:retry ID|--all`, dead-letter-retry.ts);
// nothing is dropped. Listing needs no part of the processor.
import { db } from "@/lib/db";

export type DeadCallback = {
  id: string;
  receivedAt: Date;
  deadAt: Date;
  attempts: number;
  error: string | null;
  bytes: number;
};

export async function listDeadCallbacks(limit = 100): Promise<{ total: number; items: DeadCallback[] }> {
  const [total, rows] = await Promise.all([
    db.providerCallback.count({ where: { deadAt: { not: null } } }),
    db.providerCallback.findMany({
      where: { deadAt: { not: null } },
      orderBy: { deadAt: "asc" },
      take: limit,
      select: { id: true, receivedAt: true, deadAt: true, attempts: true, error: true, body: true },
    }),
  ]);
  const items = rows.map(({ body, deadAt, ...row }) => ({
    ...row,
    deadAt: deadAt ?? row.receivedAt,
    bytes: Buffer.byteLength(body),
  }));
  return { total, items };
}

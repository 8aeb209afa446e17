// The callback dead-letter list: stored provider callbacks that still failed to apply
// after MAX_ATTEMPTS (deadAt set). The operator lists them and, once the cause is fixed,
// puts them back (`callbacks:dead`, `callbacks:retry ID|--all`, dead-letter-retry.ts);
// nothing is dropped. Listing needs no part of the processor, and no Prisma code: plain pg
// (lib/db/pool.ts), so `callbacks:dead` answers without loading the ORM (docs/benchmarks.md).
import { hotRows } from "@/lib/db/pool";

export type DeadCallback = {
  id: string;
  receivedAt: Date;
  deadAt: Date;
  attempts: number;
  error: string | null;
  bytes: number;
};

// The page and the total in one statement (the window counts before LIMIT); oldest first.
const DEAD_CALLBACKS = `SELECT "id", "receivedAt", "deadAt", "attempts", "error",
    octet_length("body") AS "bytes", count(*) OVER () AS "total"
  FROM "ProviderCallback" WHERE "deadAt" IS NOT NULL
  ORDER BY "deadAt" ASC, "id" ASC LIMIT $1`;

type Row = Omit<DeadCallback, "bytes"> & { bytes: number; total: string };

export async function listDeadCallbacks(limit = 100): Promise<{ total: number; items: DeadCallback[] }> {
  const rows = await hotRows<Row>({ text: DEAD_CALLBACKS, values: [limit] });
  const total = Number(rows[0]?.total ?? 0);
  const items = rows.map(({ total: _total, ...row }) => row);
  return { total, items };
}

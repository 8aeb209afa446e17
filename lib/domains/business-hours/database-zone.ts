// A time zone the runtime knows (Intl, checked by the schemas) that the database does not: a
// few legacy names (US/Pacific-New, Canada/East-Saskatchewan) are in Node's ICU but not in
// PostgreSQL's or PGlite's zone data, and a report or a business-seconds write in one would fail
// with a 500. The setting and the reports ask the database once per zone name and refuse it as
// the field's validation error.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";

const known = new Set<string>(["UTC"]);

/** Throws VALIDATION_FAILED naming `path` when the database cannot read `zone`. Not inside a transaction. */
export async function assertDatabaseKnowsZone(zone: string, path: string): Promise<void> {
  if (known.has(zone)) return;
  try {
    await db.$queryRaw`SELECT now() AT TIME ZONE ${zone} AS t`;
  } catch {
    const message = `unknown time zone "${zone}" (use an IANA name such as Europe/Berlin)`;
    throw new ApiError("VALIDATION_FAILED", `${path}: ${message}`, { fields: [{ path, message }] });
  }
  if (known.size < 1_000) known.add(zone);
}

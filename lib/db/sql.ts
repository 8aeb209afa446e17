// Small helpers for the pipeline's set-based SQL (Prisma raw queries, both databases).
import { randomBytes } from "node:crypto";

/** Timestamp columns are `timestamp(3)` holding UTC: compare with the database clock in UTC. */
export const NOW_UTC = `(now() AT TIME ZONE 'UTC')`;

/** A sortable-enough unique id (prefix + time + random), like the cuids Prisma generates. */
export function newId(prefix = "c"): string {
  return `${prefix}${Date.now().toString(36)}${randomBytes(10).toString("hex")}`;
}

/** `count` ids as newId makes them, from one draw of randomness (bulk inserts). */
export function newIds(prefix: string, count: number): string[] {
  const time = Date.now().toString(36);
  const hex = randomBytes(10 * count).toString("hex");
  return Array.from({ length: count }, (_, i) => `${prefix}${time}${hex.slice(i * 20, i * 20 + 20)}`);
}

/** ISO text for a `::timestamp(3)` cast (the zone suffix is ignored: the value is UTC). */
export function ts(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

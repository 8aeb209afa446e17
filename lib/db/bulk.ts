// Set-based writes with unnest(): one statement for many rows, whatever their number.
import type { Tx } from "@/lib/db";

export type Column<T> = {
  name: string;
  type: "text" | "bool" | "int" | "numeric" | "timestamp";
  get: (row: T) => unknown;
};

const arrayType = { text: "text[]", bool: "bool[]", int: "int4[]", numeric: "text[]", timestamp: "text[]" } as const;
const cast = { text: "", bool: "", int: "", numeric: "::numeric", timestamp: "::timestamp(3)" } as const;

function toParam(type: Column<unknown>["type"], value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "timestamp") return (value as Date).toISOString();
  if (type === "numeric") return String(value);
  return value;
}

/** `SELECT <casts> FROM unnest(...) AS t(...)` and its parameters. */
export function unnestSource<T>(rows: T[], columns: Column<T>[], firstParam = 1) {
  const params = columns.map((c) => rows.map((r) => toParam(c.type, c.get(r))));
  const args = columns.map((c, i) => `$${firstParam + i}::${arrayType[c.type]}`).join(", ");
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  const select = columns.map((c) => `t."${c.name}"${cast[c.type]} AS "${c.name}"`).join(", ");
  return { sql: `SELECT ${select} FROM unnest(${args}) AS t(${names})`, params };
}

/** INSERT ... ON CONFLICT DO NOTHING RETURNING <returning>. */
export async function insertIgnore<T, R>(
  tx: Tx,
  table: string,
  rows: T[],
  columns: Column<T>[],
  conflict: string,
  returning: string,
  extra: Record<string, string> = {},
): Promise<R[]> {
  if (rows.length === 0) return [];
  const src = unnestSource(rows, columns);
  const cols = [...columns.map((c) => `"${c.name}"`), ...Object.keys(extra).map((k) => `"${k}"`)].join(", ");
  const values = [...columns.map((c) => `s."${c.name}"`), ...Object.values(extra)].join(", ");
  return tx.$queryRawUnsafe<R[]>(
    `INSERT INTO "${table}" (${cols}) SELECT ${values} FROM (${src.sql}) AS s ON CONFLICT (${conflict}) DO NOTHING RETURNING ${returning}`,
    ...src.params,
  );
}

/** UPDATE table SET col = s.col ... FROM unnest(...) WHERE table.<key> = s.<key>. */
export async function updateMany<T>(
  tx: Tx,
  table: string,
  key: string,
  rows: T[],
  columns: Column<T>[],
  extra: Record<string, string> = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  const src = unnestSource(rows, columns);
  const sets = [
    ...columns.filter((c) => c.name !== key).map((c) => `"${c.name}" = s."${c.name}"`),
    ...Object.entries(extra).map(([k, v]) => `"${k}" = ${v}`),
  ].join(", ");
  return tx.$executeRawUnsafe(
    `UPDATE "${table}" AS x SET ${sets} FROM (${src.sql}) AS s WHERE x."${key}" = s."${key}"`,
    ...src.params,
  );
}

// Next hands pages their query as Record<string, string | string[]>; services want strings.
import type { z } from "zod";

export type RawSearchParams = Record<string, string | string[] | undefined>;

export function firstValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === "" ? undefined : s;
}

/** Flattens to the first value of each key, dropping empty ones. */
export function flatParams(sp: RawSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(sp)) {
    const s = firstValue(v);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

/** A query string from a base and overrides (undefined removes a key). */
export function withParams(base: Record<string, string>, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...base, ...changes })) if (v !== undefined && v !== "") next.set(k, v);
  const qs = next.toString();
  return qs ? `?${qs}` : "";
}

/**
 * A list page's query read with the domain's list schema (the API's own query schema): a
 * URL it refuses (a hand-edited ?page=x) shows the schema's defaults rather than an error.
 */
export function listQuery<S extends z.ZodType>(schema: S, params: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(params);
  return parsed.success ? parsed.data : schema.parse({});
}

// Next hands pages their query as Record<string, string | string[]>; services want strings.
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

// Response and event schemas are open to added properties: the contract tells clients to
// tolerate fields they do not know (docs/api/versions.md "Fields may be added"), so a validator
// generated from our documents must not refuse the next added field. zod's JSON Schema output
// closes every z.object with `additionalProperties: false`; this removes exactly that (an
// explicit schema for extra properties, as z.record or .catchall give, stays).

/** A copy of a JSON Schema with every `additionalProperties: false` removed. */
export function openObjects<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(openObjects) as T;
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "additionalProperties" && value === false) continue;
    out[key] = openObjects(value);
  }
  return out as T;
}

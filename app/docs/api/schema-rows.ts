// Flattens a JSON Schema (from the OpenAPI document) into readable field rows.
type Json = Record<string, unknown>;

export type FieldRow = { name: string; type: string; required: boolean; description: string };

const asJson = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** "string (date)", "ACTIVE | INACTIVE", "integer 1-100", "array of string", ... */
export function typeLabel(schema: Json): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v).replace(/^"|"$/g, "")).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(variants)) return variants.map((v) => typeLabel(asJson(v))).join(" or ");
  const type = Array.isArray(schema.type)
    ? schema.type.join(" or ")
    : typeof schema.type === "string"
      ? schema.type
      : "";
  if (type === "array") return `array of ${typeLabel(asJson(schema.items)) || "values"}`;
  const parts = [type || (schema.$ref ? String(schema.$ref).split("/").pop() : "any")];
  if (typeof schema.format === "string") parts.push(`(${schema.format})`);
  const min = schema.minimum ?? schema.minLength ?? schema.minItems;
  const max = schema.maximum ?? schema.maxLength ?? schema.maxItems;
  if (min !== undefined && max !== undefined) parts.push(`${min}–${max}`);
  else if (min !== undefined) parts.push(`≥${min}`);
  else if (max !== undefined) parts.push(`≤${max}`);
  return parts.join(" ");
}

function describe(schema: Json): string {
  const text = typeof schema.description === "string" ? schema.description : "";
  const fallback = "default" in schema ? `Default ${JSON.stringify(schema.default)}.` : "";
  return [text, text.includes("default") ? "" : fallback].filter(Boolean).join(" ");
}

/** One row per field, nested objects as dotted names, array items as name[]. */
export function schemaRows(schema: Json, prefix = "", depth = 0): FieldRow[] {
  if (depth > 6) return [];
  const properties = asJson(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows: FieldRow[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    const field = asJson(raw);
    const name = prefix ? `${prefix}.${key}` : key;
    rows.push({ name, type: typeLabel(field), required: required.has(key), description: describe(field) });
    if (field.properties) rows.push(...schemaRows(field, name, depth + 1));
    const items = asJson(field.items);
    if (items.properties) rows.push(...schemaRows(items, `${name}[]`, depth + 1));
  }
  return rows;
}

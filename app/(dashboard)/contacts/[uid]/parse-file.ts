// Reads an uploaded CSV or JSON file into header + rows (papaparse loaded only when needed).
export type ParsedFile = { columns: string[]; rows: Record<string, unknown>[] };

export async function parseContactFile(file: File): Promise<ParsedFile> {
  const text = await file.text();
  if (file.name.toLowerCase().endsWith(".json") || text.trimStart().startsWith("[")) {
    const data: unknown = JSON.parse(text);
    const list = Array.isArray(data) ? data : (data as { contacts?: unknown })?.contacts;
    if (!Array.isArray(list)) throw new Error("The JSON file must hold an array of contact objects");
    const rows = list.map((r) =>
      r && typeof r === "object" && !Array.isArray(r) ? (r as Record<string, unknown>) : {},
    );
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return { columns, rows };
  }
  const Papa = (await import("papaparse")).default;
  const result = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: "greedy" });
  return { columns: result.meta.fields ?? [], rows: result.data };
}

const ALIASES: Record<string, string> = {
  phone: "phoneNumber",
  phonenumber: "phoneNumber",
  phone_number: "phoneNumber",
  mobile: "phoneNumber",
  number: "phoneNumber",
  name: "name",
  fullname: "name",
  full_name: "name",
  email: "email",
  mail: "email",
};

/** A first guess at each column's target: a built-in field, a custom field key, or ignore. */
export function guessMapping(columns: string[], fieldKeys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of columns) {
    const norm = c.trim().toLowerCase().replace(/\s+/g, "_");
    if (ALIASES[norm]) out[c] = ALIASES[norm];
    else if (fieldKeys.includes(norm)) out[c] = `custom:${norm}`;
    else out[c] = "";
  }
  return out;
}

/** Applies the mapping: {phoneNumber, name?, email?, customFields?} per row. */
export function mapRows(rows: Record<string, unknown>[], mapping: Record<string, string>) {
  return rows.map((r) => {
    const out: Record<string, unknown> = {};
    const custom: Record<string, unknown> = {};
    for (const [column, target] of Object.entries(mapping)) {
      const value = r[column];
      if (!target || value === undefined || value === "") continue;
      if (target.startsWith("custom:")) custom[target.slice(7)] = value;
      else out[target] = value;
    }
    if (Object.keys(custom).length) out.customFields = custom;
    return out;
  });
}

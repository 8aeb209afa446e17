// Reads an uploaded CSV or JSON file into header + rows (papaparse loaded only when needed).
// A JSON file may hold contacts in the API's own shape (POST .../contacts/bulk):
// `customFields: {tier: "gold"}` becomes the column `customFields.tier`, mapped to the
// custom field `tier` when the account has one, so nothing nested is lost or shown as
// "[object Object]".
//
// Each row keeps its row number in the file, which the upload report names
// (docs/dashboard.md "Contact upload"): in a CSV as a spreadsheet numbers it (the header is
// row 1, the first contact row 2; a blank line is skipped but keeps its number), in a JSON
// file the contact's place in the list (the first is row 1).
export type ParsedFile = { columns: string[]; rows: Record<string, unknown>[]; rowNumbers: number[] };

/** The keys whose object value holds custom fields (the API's name, and a snake_case spelling). */
const CUSTOM_FIELD_KEYS = new Set(["customFields", "custom_fields"]);
const CUSTOM_PREFIX = "customFields.";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** One JSON contact as flat columns: its custom fields become `customFields.<key>`. */
export function flattenJsonContact(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (CUSTOM_FIELD_KEYS.has(key) && isPlainObject(v)) {
      for (const [field, fv] of Object.entries(v)) out[`${CUSTOM_PREFIX}${field}`] = fv;
    } else out[key] = v;
  }
  return out;
}

/** A cell of the preview table: text as is, other values as JSON (never "[object Object]"). */
export function previewCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function parseJsonContacts(text: string): ParsedFile {
  const data: unknown = JSON.parse(text);
  const list = Array.isArray(data) ? data : (data as { contacts?: unknown })?.contacts;
  if (!Array.isArray(list)) throw new Error("The JSON file must hold an array of contact objects");
  const rows = list.map(flattenJsonContact);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return { columns, rows, rowNumbers: rows.map((_, i) => i + 1) };
}

const isBlankRecord = (r: Record<string, unknown>) =>
  Object.values(r).every((v) => v === undefined || v === null || (typeof v === "string" && v.trim() === ""));

/** A CSV with a header row; blank records are left out and the others keep their spreadsheet row. */
export async function parseCsvContacts(text: string): Promise<ParsedFile> {
  const Papa = (await import("papaparse")).default;
  // Blank lines are kept by the parser (and dropped here) so each record's place is its row.
  const result = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: false });
  const rows: Record<string, unknown>[] = [];
  const rowNumbers: number[] = [];
  result.data.forEach((record, i) => {
    if (isBlankRecord(record)) return;
    rows.push(record);
    rowNumbers.push(i + 2);
  });
  return { columns: result.meta.fields ?? [], rows, rowNumbers };
}

export async function parseContactFile(file: File): Promise<ParsedFile> {
  const text = await file.text();
  const trimmed = text.trimStart();
  if (file.name.toLowerCase().endsWith(".json") || trimmed.startsWith("[") || trimmed.startsWith("{")) {
    return parseJsonContacts(text);
  }
  return parseCsvContacts(text);
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

/** The custom field a JSON column such as `customFields.tier` carries, else null. */
export const customFieldOfColumn = (column: string): string | null =>
  column.startsWith(CUSTOM_PREFIX) ? column.slice(CUSTOM_PREFIX.length) : null;

/** A first guess at each column's target: a built-in field, a custom field key, or ignore. */
export function guessMapping(columns: string[], fieldKeys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of columns) {
    const key = customFieldOfColumn(c);
    if (key !== null) {
      out[c] = fieldKeys.includes(key) ? `custom:${key}` : "";
      continue;
    }
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

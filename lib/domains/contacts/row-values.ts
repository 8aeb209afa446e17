// Checks one bulk-upload row: phone to E.164, email, and each custom field value against
// its definition's type. A bad row yields one {error_code, message}; it never throws.
import { z } from "zod";
import { findInputProblem } from "@/lib/core/storable-input";
import { parsePhone } from "@/lib/domains/senders/phone";
import { BulkContactRow, type FieldTypeValue, type RowErrorCode } from "./schemas";

export type CleanRow = {
  phoneNumber: string;
  /** null: not given (an existing contact keeps its value). */
  name: string | null;
  email: string | null;
  customFields: Record<string, string | number | boolean>;
};
export type RowProblem = { error_code: RowErrorCode; message: string };
export type RowCheck = { ok: true; row: CleanRow } | { ok: false; problem: RowProblem };

const Email = z.email();
const TEXT_MAX = 1_000;

const fail = (error_code: RowErrorCode, message: string): RowCheck => ({ ok: false, problem: { error_code, message } });

/** Empty values (null, "", whitespace) count as "not given". */
function blank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

type Coerced = { ok: true; value: string | number | boolean } | { ok: false; expected: string };

/** Accepts the JSON type itself and its plain string form (CSV cells are strings). */
export function coerceFieldValue(type: FieldTypeValue, v: unknown): Coerced {
  switch (type) {
    case "text":
      if (typeof v === "string" && v.length <= TEXT_MAX) return { ok: true, value: v };
      if (typeof v === "number" || typeof v === "boolean") return { ok: true, value: String(v) };
      return { ok: false, expected: `text of at most ${TEXT_MAX} characters` };
    case "number": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : Number.NaN;
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, expected: "a number" };
    }
    case "boolean": {
      if (typeof v === "boolean") return { ok: true, value: v };
      const s = String(v).trim().toLowerCase();
      if (typeof v !== "object" && ["true", "yes", "1"].includes(s)) return { ok: true, value: true };
      if (typeof v !== "object" && ["false", "no", "0"].includes(s)) return { ok: true, value: false };
      return { ok: false, expected: "true or false" };
    }
    case "date": {
      if (typeof v !== "string") return { ok: false, expected: "a date (YYYY-MM-DD or ISO 8601)" };
      const s = v.trim();
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
      if (day) {
        const d = new Date(`${s}T00:00:00Z`);
        if (!Number.isNaN(d.getTime()) && d.toISOString().startsWith(s)) return { ok: true, value: s };
      } else if (/^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s))) {
        return { ok: true, value: new Date(s).toISOString() };
      }
      return { ok: false, expected: "a date (YYYY-MM-DD or ISO 8601)" };
    }
  }
}

export function checkRow(raw: unknown, fieldTypes: ReadonlyMap<string, FieldTypeValue>): RowCheck {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return fail("INVALID_ROW", "Each row must be an object {phoneNumber, name?, email?, customFields?}");
  }
  const unstorable = findInputProblem(raw, "row");
  if (unstorable) return fail("INVALID_ROW", `${unstorable.path}: ${unstorable.message}`);
  const parsed = BulkContactRow.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = String(issue?.path[0] ?? "row");
    if (where === "phoneNumber") return fail("INVALID_PHONE_NUMBER", "phoneNumber is required (a string)");
    if (where === "email") return fail("INVALID_EMAIL", `email: ${issue?.message ?? "invalid"}`);
    return fail("INVALID_ROW", `${where}: ${issue?.message ?? "invalid"}`);
  }
  const row = parsed.data;

  // The one phone parser: international only, never reinterpreted (a JSON number has no "+").
  const phone = parsePhone(row.phoneNumber);
  if (!phone.ok) return fail("INVALID_PHONE_NUMBER", phone.message);
  const phoneNumber = phone.e164;

  let email: string | null = null;
  if (!blank(row.email)) {
    const candidate = String(row.email).trim();
    if (!Email.safeParse(candidate).success)
      return fail("INVALID_EMAIL", `"${candidate}" is not a valid email address`);
    email = candidate;
  }

  const customFields: CleanRow["customFields"] = {};
  for (const [key, value] of Object.entries(row.customFields ?? {})) {
    const type = fieldTypes.get(key);
    if (!type)
      return fail("UNKNOWN_CUSTOM_FIELD", `Unknown custom field "${key}"; create it under contact fields first`);
    if (blank(value)) continue;
    const coerced = coerceFieldValue(type, value);
    if (!coerced.ok) {
      return fail(
        "INVALID_CUSTOM_FIELD_VALUE",
        `Custom field "${key}" is of type ${type}: expected ${coerced.expected}`,
      );
    }
    customFields[key] = coerced.value;
  }

  return {
    ok: true,
    row: { phoneNumber, name: blank(row.name) ? null : String(row.name).trim(), email, customFields },
  };
}

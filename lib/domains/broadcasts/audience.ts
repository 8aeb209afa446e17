// The audience of a broadcast as one SQL query (docs/broadcasts.md "Audience"): the contacts
// of its ACTIVE books narrowed by the filters, plus the explicit numbers, one row per unique
// phone number, each with its template parameters resolved from the contact and its verdict
// (queued, or skipped with blacklisted / invalid_number / missing_variable). The same query
// counts the audience (preview, estimate) and, wrapped in INSERT ... SELECT, makes the
// recipients when the broadcast starts: set-based, never one row per round trip. A segment's
// rules (docs/automation.md "Segments") are one more form of the same audience: its count and
// the recipients of a broadcast sent to it come from this one query.
import type { AudienceFilter, VariableMapping, Variables } from "./schemas";

/** E.164: a plus, then 7 to 15 digits not starting with 0. */
export const E164_SQL = `'^\\+[1-9][0-9]{6,14}$'`;

type Sql = { text: string; values: unknown[] };

class Params {
  values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

const BUILT_IN: Record<string, string> = { name: "u.name", email: "u.email", phoneNumber: "u.phone" };

/** A contact field as text: a built-in column or a custom field. */
function fieldText(field: string, ps: Params): string {
  return BUILT_IN[field] ?? `(u.fields ->> ${ps.add(field)})`;
}

const CONTACT_COLUMN: Record<string, string> = { name: "c.name", email: "c.email", phoneNumber: 'c."phoneNumber"' };

function filterSql(f: AudienceFilter, ps: Params): string {
  const col = CONTACT_COLUMN[f.field] ?? `(c."customFields" ->> ${ps.add(f.field)})`;
  if (f.op === "exists") return `(${col} IS NOT NULL AND ${col} <> '')`;
  const text = String(f.value);
  switch (f.op) {
    case "eq":
      return `(lower(${col}) = lower(${ps.add(text)}))`;
    case "neq":
      return `(${col} IS NULL OR lower(${col}) <> lower(${ps.add(text)}))`;
    case "contains":
      return `(strpos(lower(coalesce(${col}, '')), lower(${ps.add(text)})) > 0)`;
    default: {
      const cmp = f.op === "gt" ? ">" : "<";
      // Numbers compare as numbers (a value that is not one never matches); else as text (dates in ISO form).
      if (typeof f.value === "number" || /^-?\d+(\.\d+)?$/.test(text)) {
        return `(CASE WHEN ${col} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (${col})::numeric ${cmp} ${ps.add(Number(text))}::numeric ELSE false END)`;
      }
      return `(${col} ${cmp} ${ps.add(text)})`;
    }
  }
}

function variableSql(v: VariableMapping, ps: Params): string {
  const raw =
    v.source === "constant"
      ? `${ps.add(v.value ?? "")}::text`
      : v.source === "field"
        ? fieldText(v.key ?? "", ps)
        : fieldText(v.source, ps);
  const value = `NULLIF(btrim(${raw}), '')`;
  return v.default !== undefined && v.default.trim() !== "" ? `COALESCE(${value}, ${ps.add(v.default)}::text)` : value;
}

/** A segment's own conditions, on top of the books and filters. */
export type SegmentConditions = { labels: string[]; lastInboundWithin: string | null; optedIn: boolean };

/**
 * Who the query selects: books narrowed by filters plus listed numbers (a broadcast's own
 * audience), or a segment's rules (`segment` set): without books, every number the account
 * knows, from its ACTIVE books and its conversations.
 */
export type AudienceRules = {
  contactBookUids: string[];
  filters: AudienceFilter[];
  phoneNumbers: string[];
  segment?: SegmentConditions;
};

export type AudienceInput = {
  customerId: string;
  /** The sender whose blacklist marks numbers skipped; null (a segment's count): none is. */
  senderId: string | null;
  audience: AudienceRules;
  variables: Variables;
  /** The moment lastInboundWithin counts back from (the start, or now for a count). */
  now?: Date;
};

/**
 * A segment's conditions on the number `phone` (an SQL expression): every label (by name,
 * whatever the case), an inbound message within the duration (PostgreSQL reads ISO 8601
 * intervals), on no blacklist of the account.
 */
function segmentSql(seg: SegmentConditions, phone: string, customer: string, now: Date, ps: Params): string[] {
  const out: string[] = [];
  const keys = [...new Set(seg.labels.map((l) => l.trim().toLowerCase()))];
  if (keys.length > 0) {
    out.push(`(SELECT count(*) FROM "ContactLabel" cl JOIN "Label" l ON l.id = cl."labelId" AND l."customerId" = ${customer}
       WHERE cl."customerId" = ${customer} AND cl."phoneNumber" = ${phone} AND l."nameKey" = ANY(${ps.add(keys)}::text[])) = ${keys.length}`);
  }
  if (seg.lastInboundWithin) {
    const since = `((${ps.add(now.toISOString())}::timestamptz - ${ps.add(seg.lastInboundWithin)}::interval) AT TIME ZONE 'UTC')`;
    out.push(`EXISTS (SELECT 1 FROM "Conversation" v WHERE v."customerId" = ${customer}
       AND v."contactPhoneNumber" = ${phone} AND v."lastInboundAt" >= ${since})`);
  }
  if (seg.optedIn) {
    out.push(
      `NOT EXISTS (SELECT 1 FROM "BlacklistEntry" o WHERE o."customerId" = ${customer} AND o."phoneNumber" = ${phone})`,
    );
  }
  return out;
}

/**
 * A range of phone numbers (after < phone <= upTo, either end open when null): a start makes
 * its recipients one range at a time (lib/domains/broadcasts/materialise.ts). Every row of a
 * number falls in one range, so the DISTINCT ON within a range is the audience's own.
 */
export type PhoneRange = { after: string | null; upTo: string | null };

/**
 * SELECT phone, "contactId", duplicates, parameters, status, "skipReason": the broadcast's
 * unique numbers; duplicates counts the other rows of the same number (a contact in two
 * books, a listed number that is also in a book), which are not sent to; its window is ordered
 * as DISTINCT ON sorts (phone, pri, at), so one sort serves both (measured on PostgreSQL 15).
 * Every value the caller gave travels as a parameter; field keys too.
 */
export function audienceQuery(input: AudienceInput, range?: PhoneRange): Sql {
  const ps = new Params();
  const customer = ps.add(input.customerId);
  const sender = ps.add(input.senderId);
  const seg = input.audience.segment;
  // A segment without books ranges over every number of the account: its contacts in ACTIVE
  // books, and the numbers of its conversations that are in none (named as the conversation names them).
  const everyNumber = seg !== undefined && input.audience.contactBookUids.length === 0;
  const inBooks = everyNumber ? "" : `AND c."contactBookId" = ANY(${ps.add(input.audience.contactBookUids)}::text[])`;
  const phones = ps.add(input.audience.phoneNumbers.map((p) => p.trim()));
  const inRange = (col: string) =>
    [
      range?.after != null ? `AND ${col} > ${ps.add(range.after)}::text` : "",
      range?.upTo != null ? `AND ${col} <= ${ps.add(range.upTo)}::text` : "",
    ].join(" ");
  const contactRange = inRange(`c."phoneNumber"`);
  const listedRange = inRange("n.phone");
  const conditions = [
    ...input.audience.filters.map((f) => filterSql(f, ps)),
    ...(seg ? segmentSql(seg, `c."phoneNumber"`, customer, input.now ?? new Date(), ps) : []),
  ];
  const where = conditions.map((f) => `AND ${f}`).join(" ");
  const body = input.variables.body.map((v) => variableSql(v, ps));
  const header = input.variables.header.map((v) => variableSql(v, ps));
  const all = [...body, ...header];
  const missing = all.length > 0 ? all.map((e) => `${e} IS NULL`).join(" OR ") : "false";
  const arr = (exprs: string[]) => (exprs.length > 0 ? `jsonb_build_array(${exprs.join(", ")})` : `'[]'::jsonb`);
  const conversations = everyNumber
    ? `
      UNION ALL
      SELECT c."phoneNumber", NULL, c.name, c.email, c."customFields", 2, c."createdAt"
        FROM (SELECT v."contactPhoneNumber" AS "phoneNumber", max(v."contactName") AS name, NULL::text AS email,
                     '{}'::jsonb AS "customFields", min(v."createdAt") AS "createdAt"
                FROM "Conversation" v
               WHERE v."customerId" = ${customer} AND NOT EXISTS (
                     SELECT 1 FROM "Contact" x JOIN "ContactBook" xb ON xb.id = x."contactBookId" AND xb.status = 'ACTIVE'
                      WHERE x."customerId" = ${customer} AND x."phoneNumber" = v."contactPhoneNumber")
               GROUP BY v."contactPhoneNumber") c
       WHERE true ${where} ${contactRange}`
    : "";
  const text = `
    WITH src AS (
      SELECT c."phoneNumber" AS phone, c.id AS "contactId", c.name, c.email, c."customFields" AS fields, 0 AS pri, c."createdAt" AS at
        FROM "Contact" c JOIN "ContactBook" b ON b.id = c."contactBookId" AND b."customerId" = ${customer} AND b.status = 'ACTIVE'
       WHERE c."customerId" = ${customer} ${inBooks}
         ${where} ${contactRange}${conversations}
      UNION ALL
      SELECT n.phone, k.id, k.name, k.email, coalesce(k."customFields", '{}'::jsonb), 1, k."createdAt"
        FROM unnest(${phones}::text[]) AS n(phone)
        LEFT JOIN LATERAL (
          SELECT x.id, x.name, x.email, x."customFields", x."createdAt" FROM "Contact" x
           WHERE x."customerId" = ${customer} AND x."phoneNumber" = n.phone ORDER BY x."createdAt" LIMIT 1
        ) k ON true
       WHERE true ${listedRange}
    ), u AS (
      SELECT DISTINCT ON (phone) *,
             count(*) OVER (PARTITION BY phone ORDER BY pri, at ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS copies
        FROM src ORDER BY phone, pri, at
    )
    SELECT u.phone, u."contactId", (u.copies - 1)::int AS duplicates,
           jsonb_build_object('body', ${arr(body)}, 'header', ${arr(header)}) AS parameters,
           CASE WHEN bl.id IS NOT NULL OR u.phone !~ ${E164_SQL} OR ${missing} THEN 'skipped' ELSE 'queued' END AS status,
           CASE WHEN bl.id IS NOT NULL THEN 'blacklisted'
                WHEN u.phone !~ ${E164_SQL} THEN 'invalid_number'
                WHEN ${missing} THEN 'missing_variable' END AS "skipReason"
      FROM u LEFT JOIN "BlacklistEntry" bl ON bl."senderId" = ${sender} AND bl."phoneNumber" = u.phone`;
  return { text, values: ps.values };
}

// The audit log's query and public shapes (docs/api/audit-events.md): one schema each, read by
// GET /audit-events, the dashboard page, its CSV export and the OpenAPI document.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { AUDIT_ACTIONS } from "./actions";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A whole UTC day (YYYY-MM-DD) or an ISO 8601 instant with its offset. */
const When = z
  .string()
  .trim()
  .refine((s) => {
    if (DAY.test(s)) {
      const d = new Date(`${s}T00:00:00.000Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }
    return /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s));
  }, "Use a day (YYYY-MM-DD) or an ISO 8601 time with its offset (2026-11-26T14:00:00Z)");

const blankIsAbsent = (v: unknown) => (v === "" ? undefined : v);

const filterShape = {
  action: z
    .preprocess(blankIsAbsent, z.enum(AUDIT_ACTIONS, { error: "action is not an audited action" }).optional())
    .describe("One action name, such as token.created"),
  actor: z
    .preprocess(blankIsAbsent, z.string().trim().max(320).optional())
    .describe("A member's email, an API token's prefix, or operator / system"),
  targetUid: z
    .preprocess(blankIsAbsent, z.string().trim().max(200).optional())
    .describe("The target's id as the API or CLI shows it (a webhookUid, a tokenId, a member's email...)"),
  dateFrom: z
    .preprocess(blankIsAbsent, When.optional())
    .describe("From this time (inclusive); a day means its start, 00:00 UTC"),
  dateTo: z
    .preprocess(blankIsAbsent, When.optional())
    .describe("Until this time (inclusive); a day means through its end (UTC)"),
};

const datesInOrder = (q: { dateFrom?: string; dateTo?: string }) =>
  !q.dateFrom || !q.dateTo || fromOf(q.dateFrom) < toOf(q.dateTo);
const datesIssue = { message: "dateFrom must be on or before dateTo", path: ["dateFrom"] };

/** The filters, without paging: the API, the dashboard page and its CSV export share them. */
export const AuditFilters = z.object(filterShape).refine(datesInOrder, datesIssue);
export type AuditFilters = z.output<typeof AuditFilters>;

/** The first instant a dateFrom names. */
export const fromOf = (s: string): Date => new Date(DAY.test(s) ? `${s}T00:00:00.000Z` : s);

/** The first instant after what a dateTo names (a day runs through its end). */
export function toOf(s: string): Date {
  if (!DAY.test(s)) return new Date(Date.parse(s) + 1);
  return new Date(Date.parse(`${s}T00:00:00.000Z`) + 86_400_000);
}

export const AuditEventListQuery = PageQuery.extend(filterShape).refine(datesInOrder, datesIssue);
export type AuditEventListQuery = z.output<typeof AuditEventListQuery>;

export const AuditActorPublic = z
  .object({
    type: z.enum(["member", "api_token", "operator", "system"]),
    email: z.string().optional().describe("A member's email (type member)"),
    tokenName: z.string().optional().describe("The API token's name (type api_token)"),
    tokenPrefix: z.string().optional().describe("The API token's visible prefix (type api_token)"),
  })
  .meta({ id: "AuditActor" });

export const AuditEventPublic = z
  .object({
    auditEventUid: z.string(),
    action: z.string().describe("A dotted action name (what was done, to what)"),
    actor: AuditActorPublic,
    target: z.object({ type: z.string(), uid: z.string() }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).describe("What changed; never a secret"),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "AuditEvent" });
export type AuditEventPublic = z.infer<typeof AuditEventPublic>;

export const AuditEventListPublic = z.object({
  auditEvents: z.array(AuditEventPublic),
  items: z.array(AuditEventPublic),
  pagination: PageBlockSchema,
});

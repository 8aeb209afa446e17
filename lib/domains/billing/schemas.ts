// Billing inputs and public shapes (docs/api/billing.md), shared by the
// API, the dashboard's billing explorer and the OpenAPI document.
import { z } from "zod";
import { isCalendarDay } from "@/lib/core/date-only-query";
import { PageQuery, strictPageQuery } from "@/lib/core/pagination";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { RECORDED_SEND_ROUTES } from "@/lib/domains/messages/send-routes";
import { PROVIDER_STATUSES } from "@/lib/domains/messages/status";

export const TEMPLATE_TYPES = ["marketing", "utility", "authentication", "service"] as const;
export const BILLABLE_VALUES = ["true", "false", "payable", "free"] as const;
export const BILLING_CLASSES = ["payable", "free"] as const;
export const TRANSACTION_TYPES = ["debit", "credit", "refund", "adjustment"] as const;
/**
 * Every status a billing record holds: pending before its first status, then its message's
 * (lib/domains/messages/status.ts); the status machine stores no other (./status-machine.ts).
 */
export const BILLING_STATUSES = ["pending", ...PROVIDER_STATUSES] as const;
/** The provider's pricing types: regular is charged, the free_* ones are not (./pricing.ts). */
export const PRICING_TYPES = ["regular", "free_customer_service", "free_entry_point"] as const;
export const BILLING_SORT_FIELDS = ["created_at", "message_timestamp", "pricing_category", "status", "rate"] as const;
export const BILLING_MESSAGES_MAX_LIMIT = 200;

export type BillingSortField = (typeof BILLING_SORT_FIELDS)[number];
export type SortOrder = "ASC" | "DESC";

/** An empty query value (`?status=`, as a cleared form control sends it) means "no filter". */
const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsAbsent, schema.optional());

/** YYYY-MM-DD that names a real calendar day (2026-02-30 is refused). */
export const DateOnly = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use the format YYYY-MM-DD")
  .refine(isCalendarDay, "Not a real calendar date");

const Text = (max: number) => z.string().trim().min(1).max(max);

const sayList = (values: readonly string[]) => `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;

/**
 * The dashboard's filter over a closed list, whatever the case ("Delivered" is delivered).
 * Anything else is refused naming the list, rather than matching nothing.
 */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(values, { error: (issue) => `"${String(issue.input)}" is not ${what}: use ${sayList(values)}` })),
  );

/** Inclusive whole UTC days: dateFrom must not be after dateTo. */
const datesInOrder = (q: { dateFrom?: string; dateTo?: string }) => !q.dateFrom || !q.dateTo || q.dateFrom <= q.dateTo;
const datesIssue = { message: "dateFrom must be on or before dateTo", path: ["dateFrom"] };

/**
 * The filters of GET /billing/messages (without paging and sort): the explorer, totals, chart and CSV share them.
 * status and pricingType are open, as the contract says (docs/api/billing.md: "or another provider status"); the
 * dashboard offers and accepts only the known ones (BillingViewQuery below).
 */
export const BillingFilters = z.object({
  senderId: optional(Text(32)).describe("Sender phone number. Omitted with a global token: user-wide"),
  phoneNumberId: optional(Text(64)).describe("Provider phone number id of the sender"),
  dateFrom: optional(DateOnly).describe("First day (UTC, inclusive), YYYY-MM-DD, on createdAt"),
  dateTo: optional(DateOnly).describe("Last day (UTC, inclusive), YYYY-MM-DD, on createdAt"),
  status: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, "status is a billing status such as delivered"),
  ).describe(`${sayList(BILLING_STATUSES)} (the statuses this service records), or another billing status; any case`),
  templateType: optional(z.enum(TEMPLATE_TYPES)).describe("marketing, utility, authentication or service"),
  billable: optional(z.enum(BILLABLE_VALUES)).describe(
    "true or false (the billable flag), payable or free (the billing class)",
  ),
  pricingType: optional(Text(64)).describe(`Provider pricing type: ${sayList(PRICING_TYPES)}, or another`),
  messageId: optional(Text(256)).describe("Exact provider message id"),
  recipient: optional(Text(32)).describe("Recipient phone number (with or without +)"),
  conversationId: optional(Text(256)).describe("Provider conversation id"),
  sendRoute: optional(
    z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(RECORDED_SEND_ROUTES)),
  ).describe(
    `How the message was sent: ${sayList(RECORDED_SEND_ROUTES)} (external: sent outside Switchboard from the same number)`,
  ),
});
export type BillingFiltersInput = z.infer<typeof BillingFilters>;

const SortBy = z.enum(BILLING_SORT_FIELDS).default("created_at");
const SortOrderParam = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(["ASC", "DESC"]))
  .default("DESC");

/** GET /api/v3/billing/messages (docs/api/billing.md): strict paging, every filter and sort. */
export const BillingMessagesQuery = BillingFilters.extend(strictPageQuery(BILLING_MESSAGES_MAX_LIMIT).shape)
  .extend({
    sortBy: z
      .preprocess(blankAsAbsent, SortBy)
      .describe("created_at (default), message_timestamp, pricing_category, status or rate"),
    sortOrder: z.preprocess(blankAsAbsent, SortOrderParam).describe("ASC or DESC (default), case-insensitive"),
  })
  .refine(datesInOrder, datesIssue);
export type BillingMessagesInput = z.infer<typeof BillingMessagesQuery>;

/** The explorer's non-paging view state (filters + sort), e.g. for the CSV export. */
export const BillingExportQuery = BillingFilters.extend({
  sortBy: z.preprocess(blankAsAbsent, SortBy),
  sortOrder: z.preprocess(blankAsAbsent, SortOrderParam),
}).refine(datesInOrder, datesIssue);
export type BillingExportInput = z.infer<typeof BillingExportQuery>;

/**
 * The dashboard's billing view (its filter form offers these lists as selects): status and
 * pricingType one of the values records hold, any case; another is refused with the list.
 */
const viewFilters = {
  status: oneOf(BILLING_STATUSES, "a billing status"),
  pricingType: oneOf(PRICING_TYPES, "a pricing type"),
};
export const BillingViewQuery = BillingMessagesQuery.safeExtend(viewFilters);
export const BillingViewExportQuery = BillingExportQuery.safeExtend(viewFilters);

/** GET /api/v3/billing/history (docs/api/billing.md "The ledger"): the ledger, page-based paging. */
export const BillingHistoryQuery = PageQuery.extend({
  senderId: optional(Text(32)).describe("Sender phone number; omitted with a global token: the whole account"),
  phoneNumberId: optional(Text(64)).describe("Provider phone number id of the sender"),
  dateFrom: optional(DateOnly).describe("First day (UTC, inclusive), YYYY-MM-DD"),
  dateTo: optional(DateOnly).describe("Last day (UTC, inclusive), YYYY-MM-DD"),
  transactionType: optional(z.enum(TRANSACTION_TYPES)).describe("debit, credit, refund or adjustment"),
  templateType: optional(z.enum(TEMPLATE_TYPES)).describe("marketing, utility, authentication or service"),
  billingClass: optional(z.enum(BILLING_CLASSES)).describe("payable or free"),
}).refine(datesInOrder, datesIssue);
export type BillingHistoryInput = z.infer<typeof BillingHistoryQuery>;

// ---- Public shapes (responses; the OpenAPI document reads them) ----

export const PublicBillingRecord = z
  .object({
    billingUid: z.string(),
    messageId: z.string(),
    phoneNumberId: z.string(),
    senderPhoneNumber: z.string(),
    recipientId: z.string(),
    status: z.string(),
    billable: z.boolean(),
    billingClass: z.string(),
    pricingModel: z.string().nullable(),
    pricingCategory: z.string().nullable(),
    templateType: z.string().nullable(),
    pricingType: z.string().nullable(),
    rate: z.number(),
    conversationId: z.string().nullable(),
    conversationOriginType: z.string().nullable(),
    messageTimestamp: isoTimestamp(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "BillingRecord" });
export type PublicBillingRecordT = z.infer<typeof PublicBillingRecord>;
/** The public record's fields in the order of docs/api/billing.md (the CSV columns; the columns a list reads). */
export const PUBLIC_BILLING_RECORD_FIELDS = PublicBillingRecord.keyof().options;

const Scope = z.enum(["user", "sender"]).describe("user: all the customer's senders; sender: one sender");

export const BillingMessagesData = z.object({
  senderId: z.string().nullable(),
  phoneNumberId: z.string().nullable(),
  scope: Scope,
  billingRecords: z.array(PublicBillingRecord),
  pagination: z.object({
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    totalPages: z.number(),
    count: z.number(),
    hasMore: z.boolean(),
  }),
});

export const PublicBillingTransaction = z
  .object({
    transactionUid: z.string(),
    type: z.enum(TRANSACTION_TYPES),
    amount: z.number().describe("Debits, credits and refunds are positive; adjustments carry their sign"),
    currency: z.string(),
    description: z.string().nullable(),
    senderId: z.string().nullable().describe("Sender phone number; null for account-level entries"),
    phoneNumberId: z.string().nullable(),
    billingUid: z.string().nullable(),
    templateType: z.string().nullable(),
    billingClass: z.string().nullable(),
    pricingCategory: z.string().nullable(),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "LedgerTransaction" });
export type PublicBillingTransactionT = z.infer<typeof PublicBillingTransaction>;

export const BillingHistoryData = z.object({
  senderId: z.string().nullable(),
  phoneNumberId: z.string().nullable(),
  scope: Scope,
  transactions: z.array(PublicBillingTransaction),
  summary: z.object({
    credits: z.number(),
    debits: z.number(),
    refunds: z.number(),
    adjustments: z.number(),
    balance: z.number().describe("credits + refunds + adjustments (signed) - debits, over the filtered set"),
    currency: z.string(),
  }),
  pagination: BillingMessagesData.shape.pagination,
});

/** The account's low-balance threshold (docs/api/billing.md "Low balance"): an amount, or empty for never. */
export const LowBalanceThresholdInput = z.object({
  threshold: z
    .string()
    .trim()
    .refine(
      (v) => v === "" || /^\d{1,8}(\.\d{1,6})?$/.test(v),
      "Enter an amount like 5 or 12.50, or leave it empty for no alert",
    )
    .transform((v) => (v === "" ? null : v)),
});

// Orders: the order-details send, the follow-up send (status update or resend) and the
// offset-paginated listing of docs/api/pagination.md (limit 1-100, default 25; offset >= 0, default 0).
import { z } from "zod";
import { PublicId } from "@/lib/core/path-params";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { Recipient, SendReceipt } from "../schemas";

export const ORDER_STATUSES = [
  "pending",
  "processing",
  "partially_shipped",
  "shipped",
  "completed",
  "canceled",
] as const;

const intIn = (fallback: number, min: number, max: number, what: string) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? fallback : typeof v === "string" ? Number(v) : v),
    z
      .number({ error: `${what} must be an integer` })
      .int(`${what} must be an integer`)
      .min(min, `${what} must be at least ${min}`)
      .max(max, `${what} must be at most ${max}`),
  );

export const OffsetQuery = z.object({
  limit: intIn(25, 1, 100, "limit").describe("Page size 1-100, default 25"),
  offset: intIn(0, 0, Number.MAX_SAFE_INTEGER, "offset").describe("Rows to skip, default 0"),
});

export const OrderListQuery = OffsetQuery.extend({
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(ORDER_STATUSES).optional()),
  recipient: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(32).optional()),
});
export type OrderListInput = z.infer<typeof OrderListQuery>;

const Money = z.number().min(0).max(1_000_000_000).multipleOf(0.01, "at most two decimals");

export const OrderItem = z.object({
  name: z.string().trim().min(1).max(200),
  quantity: z.number().int().min(1).max(10_000),
  amount: Money.describe("Unit price"),
  retailerId: z.string().trim().max(100).optional(),
});

export const OrderFields = z.object({
  reference: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe("Your order reference (unique); generated when omitted"),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "ISO 4217 code, e.g. USD")
    .transform((c) => c.toUpperCase())
    .default("USD"),
  items: z.array(OrderItem).min(1).max(100),
  tax: Money.default(0),
  shipping: Money.default(0),
  discount: Money.default(0),
  bodyText: z.string().trim().min(1).max(1024).default("Here is your order; review and pay when ready."),
});

export const OrderSendBody = z.object({ senderId: z.string().optional(), to: Recipient, order: OrderFields });
export type OrderSendInput = z.infer<typeof OrderSendBody>;

export const OrderFollowUpBody = z.object({
  senderId: z.string().optional(),
  status: z
    .enum(ORDER_STATUSES)
    .optional()
    .describe("New status: sends an order-status message; omitted: resends the order"),
  text: z.string().trim().min(1).max(1024).optional(),
});
export type OrderFollowUpInput = z.infer<typeof OrderFollowUpBody>;

/** A path id: a value that is not an id we issue names no order. */
export const OrderUid = PublicId.describe("The order's uid (ord_…)");

/** An order as the API answers it (toPublicOrder). */
export const PublicOrder = z
  .object({
    orderUid: z.string(),
    uid: z.string(),
    reference: z.string(),
    status: z.string(),
    recipient: z.string(),
    senderId: z.string().nullable().describe("The sender's phone number"),
    currency: z.string(),
    items: z.unknown().describe("The order's line items, as sent"),
    subtotal: z.number(),
    tax: z.number(),
    shipping: z.number(),
    discount: z.number(),
    total: z.number(),
    lastMessageUid: z.string().nullable(),
    sendCount: z.number().int(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Order" });

/** The send receipt of an order send, with the order. */
export const OrderReceiptPublic = SendReceipt.extend({ order: PublicOrder }).meta({ id: "OrderReceipt" });

export const OrderListPublic = z.object({
  orders: z.array(PublicOrder),
  items: z.array(PublicOrder),
  pagination: z.object({
    limit: z.number().int(),
    offset: z.number().int(),
    count: z.number().int(),
    total: z.number().int(),
    has_more: z.boolean(),
  }),
});

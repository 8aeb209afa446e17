// Seeded billing data for the billing tests: varied records (ties on every sort column,
// NULL categories, boundary timestamps) for one customer across its two senders, and
// ledger entries; plus plain-JS versions of the filters and sorts to check the API against.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { PRICING_CATEGORIES } from "@/lib/domains/billing/rate-card";
import type { Sender } from "@/lib/generated/prisma/client";

export type SeedRecord = {
  id: string;
  customerId: string;
  senderId: string;
  phoneNumberId: string;
  senderPhoneNumber: string;
  messageId: string;
  recipientId: string;
  status: string;
  billable: boolean;
  billingClass: string;
  pricingModel: string | null;
  pricingCategory: string | null;
  templateType: string | null;
  pricingType: string | null;
  rate: number;
  conversationId: string | null;
  conversationOriginType: string | null;
  messageTimestamp: Date;
  createdAt: Date;
  updatedAt: Date;
};

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, int: (n: number) => Math.floor(next() * n) };
}

export const STATUSES = ["accepted", "sent", "delivered", "read", "failed", "pending", "expired"] as const;
export const TEMPLATE_TYPES_OR_NULL = ["marketing", "utility", "authentication", "service", null] as const;
export const PRICING_TYPES = ["regular", "free_customer_service", "free_entry_point", null] as const;
export const RATES = [0, 0.0125, 0.025, 0.0147, 0.05] as const;
export const BASE_DAY = Date.UTC(2026, 8, 1); // 2026-09-01
const DAY = 86_400_000;

export function dayString(offsetDays: number): string {
  return new Date(BASE_DAY + offsetDays * DAY).toISOString().slice(0, 10);
}

/** `count` records spread over 60 days and the given senders. */
export function makeRecords(customerId: string, senders: Sender[], count: number, seed: number): SeedRecord[] {
  const r = rng(seed);
  const tag = randomBytes(4).toString("hex");
  const recipients = ["15550001001", "15550001002", "+15550001003", "15550001004", "+15550001005"];
  const records: SeedRecord[] = [];
  for (let i = 0; i < count; i++) {
    const sender = senders[i % senders.length] as Sender;
    const billable = r.next() < 0.6;
    // Mostly consistent, sometimes not: the two "billable" filter families must differ.
    const billingClass = r.next() < 0.1 ? (billable ? "free" : "payable") : billable ? "payable" : "free";
    let createdAt = new Date(BASE_DAY + r.int(60) * DAY + r.int(24) * 3_600_000);
    const prev = records[i - 1];
    if (prev && i % 9 === 0) createdAt = prev.createdAt; // ties on createdAt
    if (i === 1) createdAt = new Date(BASE_DAY + 10 * DAY); // 00:00:00.000 of day 10
    if (i === 2) createdAt = new Date(BASE_DAY + 20 * DAY - 1); // 23:59:59.999 of day 19
    const templateType = r.pick(TEMPLATE_TYPES_OR_NULL);
    records.push({
      id: `c${tag}${randomBytes(8).toString("hex")}`,
      customerId,
      senderId: sender.id,
      phoneNumberId: sender.phoneNumberId ?? "",
      senderPhoneNumber: sender.phoneNumber,
      messageId: `wamid.${tag}.${i}`,
      recipientId: r.pick(recipients),
      status: r.pick(STATUSES),
      billable,
      billingClass,
      pricingModel: r.next() < 0.8 ? "PMP" : null,
      pricingCategory: r.next() < 0.12 ? null : r.pick(PRICING_CATEGORIES),
      templateType,
      pricingType: r.pick(PRICING_TYPES),
      rate: r.pick(RATES),
      conversationId: r.next() < 0.2 ? null : `conv-${tag}-${i % 25}`,
      conversationOriginType: r.pick(["marketing", "utility", "service", null]),
      messageTimestamp: new Date(createdAt.getTime() - r.int(4) * 60_000),
      createdAt,
      updatedAt: new Date(createdAt.getTime() + 3_600_000),
    });
  }
  return records;
}

export async function insertRecords(records: SeedRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 200) {
    await db.billingRecord.createMany({ data: records.slice(i, i + 200) });
  }
}

// ---- The independent computation (plain JS) ----

export type Filters = {
  senderId?: string; // Sender.id (database id)
  phoneNumberId?: string;
  dateFrom?: string;
  dateTo?: string;
  status?: string;
  templateType?: "marketing" | "utility" | "authentication" | "service";
  billable?: "true" | "false" | "payable" | "free";
  pricingType?: string;
  messageId?: string;
  recipient?: string;
  conversationId?: string;
};

const digits = (s: string) => s.replace(/\D/g, "");

export function matches(r: SeedRecord, f: Filters): boolean {
  if (f.senderId && r.senderId !== f.senderId) return false;
  if (f.phoneNumberId && r.phoneNumberId !== f.phoneNumberId) return false;
  const day = r.createdAt.toISOString().slice(0, 10);
  if (f.dateFrom && day < f.dateFrom) return false;
  if (f.dateTo && day > f.dateTo) return false;
  if (f.status && r.status !== f.status) return false;
  if (f.templateType && r.templateType !== f.templateType) return false;
  if (f.billable === "true" && !r.billable) return false;
  if (f.billable === "false" && r.billable) return false;
  if ((f.billable === "payable" || f.billable === "free") && r.billingClass !== f.billable) return false;
  if (f.pricingType && r.pricingType !== f.pricingType) return false;
  if (f.messageId && r.messageId !== f.messageId) return false;
  if (f.recipient && digits(r.recipientId) !== digits(f.recipient)) return false;
  if (f.conversationId && r.conversationId !== f.conversationId) return false;
  return true;
}

type SortKey = "created_at" | "message_timestamp" | "pricing_category" | "status" | "rate";

function sortValue(r: SeedRecord, key: SortKey): number | string | null {
  if (key === "created_at") return r.createdAt.getTime();
  if (key === "message_timestamp") return r.messageTimestamp.getTime();
  if (key === "pricing_category") return r.pricingCategory;
  if (key === "status") return r.status;
  return r.rate;
}

/** (column, id) ascending with NULLs last; DESC is the exact reverse (NULLs first). */
export function sortRecords(rows: SeedRecord[], key: SortKey = "created_at", order: "ASC" | "DESC" = "DESC") {
  const sorted = [...rows].sort((a, b) => {
    const va = sortValue(a, key);
    const vb = sortValue(b, key);
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return va < vb ? -1 : 1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return order === "ASC" ? sorted : sorted.reverse();
}

export function toPublic(r: SeedRecord) {
  return {
    billingUid: r.id,
    messageId: r.messageId,
    phoneNumberId: r.phoneNumberId,
    senderPhoneNumber: r.senderPhoneNumber,
    recipientId: r.recipientId,
    status: r.status,
    billable: r.billable,
    billingClass: r.billingClass,
    pricingModel: r.pricingModel,
    pricingCategory: r.pricingCategory,
    templateType: r.templateType,
    pricingType: r.pricingType,
    rate: r.rate,
    conversationId: r.conversationId,
    conversationOriginType: r.conversationOriginType,
    messageTimestamp: r.messageTimestamp.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

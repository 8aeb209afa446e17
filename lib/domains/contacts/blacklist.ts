// A sender's message blacklist: the paginated listing, the helpers that add numbers, and the
// send pipeline's blacklist step (recipients checked before sending).

import { ApiError } from "@/lib/core/errors";
import { type PageBlock, pageBlock, skipTake } from "@/lib/core/pagination";
import { db, hotRows } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import type { Principal } from "@/lib/domains/auth/principal";
import { normalizePhone, type Sender } from "@/lib/domains/senders/service";
import { type BlacklistEntry, Prisma } from "@/lib/generated/prisma/client";
import type { BlacklistInput } from "./schemas";
import { phoneSearchTerm } from "./search";

export type BlacklistPage = { entries: BlacklistEntry[]; pagination: PageBlock };

/** The resolved sender's entries (the sender already passed the principal's scope). */
export async function listBlacklist(p: Principal, sender: Sender, query: BlacklistInput): Promise<BlacklistPage> {
  const where: Prisma.BlacklistEntryWhereInput = { customerId: p.customerId, senderId: sender.id };
  const term = query.search ? phoneSearchTerm(query.search) : "";
  if (term) where.phoneNumber = { contains: term };
  const [total, entries] = await Promise.all([
    db.blacklistEntry.count({ where }),
    db.blacklistEntry.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], ...skipTake(query) }),
  ]);
  return { entries, pagination: pageBlock(query.page, query.limit, total, entries.length) };
}

/** How a contact came to be on a sender's blacklist, as it was given (the inbox's thread shows it). */
export type BlacklistStanding = { reason: string | null; source: string; createdAt: string };

/** The contact's entry on one of the customer's senders' blacklists, or null. */
export async function blacklistStanding(
  p: Principal,
  senderId: string,
  phoneNumber: string,
): Promise<BlacklistStanding | null> {
  const entry = await db.blacklistEntry.findFirst({
    where: { customerId: p.customerId, senderId, phoneNumber },
    select: { reason: true, source: true, createdAt: true },
  });
  return entry ? { reason: entry.reason, source: entry.source, createdAt: entry.createdAt.toISOString() } : null;
}

/** Adds (or keeps) a number on a sender's blacklist; the sender must be the customer's. */
export async function addToBlacklist(
  customerId: string,
  senderId: string,
  phone: string,
  reason?: string | null,
): Promise<BlacklistEntry> {
  const phoneNumber = normalizePhone(phone);
  const sender = await db.sender.findFirst({ where: { id: senderId, customerId }, select: { id: true } });
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Sender not found for this customer");
  return db.blacklistEntry.upsert({
    where: { senderId_phoneNumber: { senderId: sender.id, phoneNumber } },
    create: { customerId, senderId: sender.id, phoneNumber, reason: reason ?? null },
    update: reason === undefined ? {} : { reason },
  });
}

/**
 * POST /blacklist (and the dashboard): adds the number to the resolved sender's blacklist.
 * Idempotent: an existing entry stays (its reason changes only when one is given).
 */
export async function addBlacklistEntry(
  p: Principal,
  sender: Sender,
  input: { phoneNumber: string; reason?: string },
  source: "api" | "dashboard" = p.via === "session" ? "dashboard" : "api",
): Promise<BlacklistEntry> {
  const phoneNumber = normalizePhone(input.phoneNumber);
  const where = { customerId: p.customerId, senderId: sender.id, phoneNumber };
  return db.$transaction(async (tx) => {
    const { count } = await tx.blacklistEntry.createMany({
      data: [{ ...where, reason: input.reason ?? null, source }],
      skipDuplicates: true,
    });
    if (input.reason !== undefined) await tx.blacklistEntry.updateMany({ where, data: { reason: input.reason } });
    // A number already listed is no change to record (unless its reason changed).
    if (count > 0 || input.reason !== undefined) {
      await recordAudit(tx, {
        ...auditContext(p),
        action: "blacklist.added",
        target: { type: "blacklist_entry", uid: phoneNumber },
        details: {
          senderId: sender.id,
          senderPhoneNumber: sender.phoneNumber,
          reason: input.reason ?? null,
          new: count > 0,
        },
      });
    }
    return tx.blacklistEntry.findFirstOrThrow({ where });
  });
}

/** POST /blacklist/remove: whether the number was on the sender's blacklist. */
export async function removeBlacklistEntry(p: Principal, sender: Sender, phone: string): Promise<boolean> {
  const phoneNumber = normalizePhone(phone);
  return db.$transaction(async (tx) => {
    const { count } = await tx.blacklistEntry.deleteMany({
      where: { customerId: p.customerId, senderId: sender.id, phoneNumber },
    });
    if (count > 0) {
      await recordAudit(tx, {
        ...auditContext(p),
        action: "blacklist.removed",
        target: { type: "blacklist_entry", uid: phoneNumber },
        details: { senderId: sender.id, senderPhoneNumber: sender.phoneNumber },
      });
    }
    return count > 0;
  });
}

export async function isBlacklisted(customerId: string, senderId: string, phone: string): Promise<boolean> {
  const [blocked] = await blacklistedAmong(customerId, senderId, [phone]);
  return blocked === true;
}

/**
 * The blacklist step of the send pipeline (docs/messaging.md "The send pipeline"): for each
 * recipient, whether it is on the sender's blacklist. One statement for a whole batch, and
 * plain pg, not the ORM (it runs on every send; see hotRows).
 */
export async function blacklistedAmong(customerId: string, senderId: string, recipients: string[]): Promise<boolean[]> {
  const phones = recipients.map(normalizePhone);
  if (phones.length === 0) return [];
  const hits = await hotRows<{ phoneNumber: string }>(
    Prisma.sql`SELECT "phoneNumber" FROM "BlacklistEntry"
      WHERE "customerId" = ${customerId} AND "senderId" = ${senderId} AND "phoneNumber" = ANY(${[...new Set(phones)]}::text[])`,
  );
  const blocked = new Set(hits.map((h) => h.phoneNumber));
  return phones.map((phone) => blocked.has(phone));
}

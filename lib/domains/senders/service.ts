// Senders and default sender resolution (docs/api/authentication.md "Which sender a request acts on").

import { ApiError } from "@/lib/core/errors";
import { db, hotRows } from "@/lib/db";
import { allowedSenderIds, type Principal, senderAllowed } from "@/lib/domains/auth/principal";
import { Prisma, type Sender } from "@/lib/generated/prisma/client";
import { E164, normalizePhone } from "./phone";

export type { Sender };
export { E164, normalizePhone };

/** The senders the principal may see (a number-scoped token's one, a limited member's). */
export async function listSenders(p: Principal): Promise<Sender[]> {
  const allowed = allowedSenderIds(p);
  return db.sender.findMany({
    where: { customerId: p.customerId, ...(allowed ? { id: { in: [...allowed] } } : {}) },
    // Removed senders (history kept) last.
    orderBy: [{ deactivatedAt: { sort: "desc", nulls: "first" } }, { isDefault: "desc" }, { createdAt: "asc" }],
  });
}

export async function findSenderByPhone(p: Principal, phone: string): Promise<Sender | null> {
  const phoneNumber = normalizePhone(phone);
  // Not a phone number (a NUL byte would even fail inside PostgreSQL): no such sender.
  if (!E164.test(phoneNumber)) return null;
  return firstSender(Prisma.sql`"customerId" = ${p.customerId} AND "phoneNumber" = ${phoneNumber}`);
}

/** A sender by id, or null when it is gone (background work: a broadcast batch's sender, every batch). */
export const senderById = (id: string): Promise<Sender | null> => firstSender(Prisma.sql`"id" = ${id}`);

/** Sender look-ups run on most API requests: plain pg, not the ORM (see hotRows). */
async function firstSender(where: Prisma.Sql, orderBy = Prisma.sql`"id"`): Promise<Sender | null> {
  const [sender] = await hotRows<Sender>(Prisma.sql`SELECT * FROM "Sender" WHERE ${where} ORDER BY ${orderBy} LIMIT 1`);
  return sender ?? null;
}

const boundElsewhere = (code: "TOKEN_SCOPE_NOT_ALLOWED" | "SENDER_NOT_ALLOWED", details?: Record<string, unknown>) =>
  new ApiError(code, "This token is bound to another sender", details);

/**
 * The sender a provider-compatible path names by its provider phone number id
 * (POST /{phoneNumberId}/messages). undefined when the value cannot be such an id: the path
 * is then no route at all.
 */
export async function resolveSenderByPhoneNumberId(p: Principal, phoneNumberId: string): Promise<Sender | undefined> {
  if (!/^\d{1,30}$/.test(phoneNumberId)) return undefined;
  const sender = await firstSender(Prisma.sql`"customerId" = ${p.customerId} AND "phoneNumberId" = ${phoneNumberId}`);
  if (!sender)
    throw new ApiError("SENDER_NOT_FOUND", `Phone number id ${phoneNumberId} is not connected to this account`);
  if (p.scopedSenderId && p.scopedSenderId !== sender.id) throw boundElsewhere("TOKEN_SCOPE_NOT_ALLOWED");
  if (!senderAllowed(p, sender.id)) throw notYourSender(sender.phoneNumber);
  return sender;
}

export type ResolveOptions = {
  /** The code a number-scoped token gets for another sender (billing: SENDER_NOT_ALLOWED). */
  scopeError?: "TOKEN_SCOPE_NOT_ALLOWED" | "SENDER_NOT_ALLOWED";
  /** When false, a global token without senderId resolves to no sender (user-wide reads). */
  useDefault?: boolean;
  /** When true, a sender without a provider phone number id is refused. */
  requireSetup?: boolean;
};

const notYourSender = (phoneNumber: string) =>
  new ApiError("SENDER_NOT_ALLOWED", `Sender ${phoneNumber} is not one of the senders you work on`);

/**
 * A number-scoped token resolves to its sender (another senderId is refused); a global
 * token takes the explicit senderId, else the default sender (or none when useDefault
 * is false). A member limited to some senders (an agent, docs/members.md) may name only
 * those, and the default is the first of them.
 */
export async function resolveSender(
  p: Principal,
  requested: string | undefined,
  options: ResolveOptions = {},
): Promise<Sender | undefined> {
  const { scopeError = "TOKEN_SCOPE_NOT_ALLOWED", useDefault = true, requireSetup = true } = options;
  let sender: Sender | null = null;
  if (p.scopedSenderId) {
    sender = await firstSender(Prisma.sql`"id" = ${p.scopedSenderId} AND "customerId" = ${p.customerId}`);
    if (!sender) throw new ApiError("SENDER_NOT_FOUND", "The token's sender is no longer connected");
    if (requested && normalizePhone(requested) !== sender.phoneNumber) {
      throw boundElsewhere(scopeError, { allowedSenderId: sender.phoneNumber });
    }
  } else if (requested) {
    sender = await findSenderByPhone(p, requested);
    if (!sender)
      throw new ApiError("SENDER_NOT_FOUND", `Sender ${normalizePhone(requested)} is not connected to this account`);
    if (!senderAllowed(p, sender.id)) throw notYourSender(sender.phoneNumber);
  } else if (useDefault) {
    const allowed = allowedSenderIds(p);
    sender = await firstSender(
      allowed
        ? Prisma.sql`"customerId" = ${p.customerId} AND "id" = ANY(${[...allowed]}::text[])`
        : Prisma.sql`"customerId" = ${p.customerId}`,
      // A removed sender (deactivatedAt) is never the default one.
      Prisma.sql`"deactivatedAt" IS NOT NULL, "isDefault" DESC, "createdAt" ASC, "id" ASC`,
    );
    if (!sender) {
      throw new ApiError(
        "SENDER_NOT_FOUND",
        allowed ? "None of the senders you work on is connected" : "This account has no connected sender",
      );
    }
  } else {
    return undefined;
  }
  if (requireSetup && !sender.phoneNumberId) {
    throw new ApiError("WHATSAPP_SETUP_INCOMPLETE", `Sender ${sender.phoneNumber} has not finished WhatsApp setup`);
  }
  return sender;
}

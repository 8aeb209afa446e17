// A sender's provider limits as this service holds them (docs/messaging.md "Sender limits"):
// the number's throughput per second and the messaging limit of its business account, with
// how much of it the rolling 24 hours used. Broadcasts pace and pause by these; GET /senders
// shows them; the operator sets them (sender:limits, docs/operator-cli.md).
//
// The messaging limit belongs to the business account (the provider sets it per portfolio
// since October 2025): every sender of one wabaId shares it, a sender without a wabaId is its
// own account. It counts unique contacts reached outside an open customer service window in
// the last 24 hours, across every send path (every Message row: /send, /chat, orders, the
// inbox, broadcasts). A contact who wrote to that number within the 24 hours before a message
// had an open window, so that message does not count.
import { db, hotRows } from "@/lib/db";
import { contactsReachedOutsideWindow } from "@/lib/domains/messages/reads";
import { Prisma, type Sender } from "@/lib/generated/prisma/client";

const DAY_MS = 24 * 60 * 60 * 1000;
export type MessagingLimit = {
  /** Unique contacts per rolling 24 hours; null = unlimited. */
  tier: number | null;
  /** Unique contacts reached outside an open window in the last 24 hours. */
  usedLast24h: number;
  /** When the oldest counted contact leaves the 24 hours (one more may be reached); null when none counts. */
  resetsAt: Date | null;
};

export type SenderLimits = { throughputPerSecond: number; messagingLimit: MessagingLimit };

type LimitSender = Pick<Sender, "id" | "customerId" | "wabaId" | "throughputPerSecond" | "messagingLimit">;

/** The ids of the senders sharing this sender's business account (itself included). */
export async function accountSenderIds(sender: Pick<Sender, "id" | "customerId" | "wabaId">): Promise<string[]> {
  if (!sender.wabaId) return [sender.id];
  const rows = await hotRows<{ id: string }>(
    Prisma.sql`SELECT "id" FROM "Sender" WHERE "customerId" = ${sender.customerId} AND "wabaId" = ${sender.wabaId} ORDER BY "id"`,
  );
  return rows.length > 0 ? rows.map((r) => r.id) : [sender.id];
}

/**
 * The messaging-limit use of a business account at `now`: one read (lib/domains/messages/reads.ts).
 * Messages the provider never took (refused at the send, still queued) reached nobody and do not count.
 */
export async function messagingLimitUsage(
  customerId: string,
  senderIds: readonly string[],
  now = new Date(),
): Promise<{ usedLast24h: number; resetsAt: Date | null }> {
  const { used, oldest } = await contactsReachedOutsideWindow(
    customerId,
    senderIds,
    new Date(now.getTime() - DAY_MS),
    now,
  );
  return { usedLast24h: used, resetsAt: oldest ? new Date(oldest.getTime() + DAY_MS) : null };
}

/** One sender's throughput and its account's messaging limit with the use of the last 24 hours. */
export async function senderLimits(sender: LimitSender, now = new Date()): Promise<SenderLimits> {
  const usage = await messagingLimitUsage(sender.customerId, await accountSenderIds(sender), now);
  return { throughputPerSecond: sender.throughputPerSecond, messagingLimit: { tier: sender.messagingLimit, ...usage } };
}

/** The limits of several senders of one customer, in their order: one usage read per business account. */
export async function limitsOfSenders(senders: readonly LimitSender[], now = new Date()): Promise<SenderLimits[]> {
  const byAccount = new Map<string, Promise<{ usedLast24h: number; resetsAt: Date | null }>>();
  return Promise.all(
    senders.map(async (sender) => {
      const account = sender.wabaId ? `waba:${sender.wabaId}` : `sender:${sender.id}`;
      let usage = byAccount.get(account);
      if (!usage) {
        usage = accountSenderIds(sender).then((ids) => messagingLimitUsage(sender.customerId, ids, now));
        byAccount.set(account, usage);
      }
      return {
        throughputPerSecond: sender.throughputPerSecond,
        messagingLimit: { tier: sender.messagingLimit, ...(await usage) },
      };
    }),
  );
}

export type LimitsChange = {
  /** The sender's phone number (E.164): unique across customers. */
  phoneNumber: string;
  throughputPerSecond?: number;
  /** null = unlimited. */
  messagingLimit?: number | null;
};

export type LimitsChangeResult = {
  sender: Sender;
  limits: SenderLimits;
  /** The phone numbers of the account's senders whose messaging limit was set with it. */
  accountPhoneNumbers: string[];
};

/**
 * The operator's sender:limits (docs/operator-cli.md "Credit and sender limits"): the throughput is the
 * number's own; the messaging limit is the business account's, so it is set on every sender
 * of the wabaId in the same transaction. Nothing to change just reads them. undefined when no
 * sender has this phone number.
 */
export async function setSenderLimits(change: LimitsChange): Promise<LimitsChangeResult | undefined> {
  const found = await db.sender.findUnique({ where: { phoneNumber: change.phoneNumber } });
  if (!found) return undefined;
  const accountWhere = found.wabaId
    ? { customerId: found.customerId, wabaId: found.wabaId }
    : { customerId: found.customerId, id: found.id };
  await db.$transaction(async (tx) => {
    if (change.throughputPerSecond !== undefined) {
      await tx.sender.update({
        where: { id: found.id },
        data: { throughputPerSecond: change.throughputPerSecond },
      });
    }
    if (change.messagingLimit !== undefined) {
      await tx.sender.updateMany({ where: accountWhere, data: { messagingLimit: change.messagingLimit } });
    }
  });
  const sender = await db.sender.findUniqueOrThrow({ where: { id: found.id } });
  const account = await db.sender.findMany({
    where: accountWhere,
    select: { phoneNumber: true },
    orderBy: { id: "asc" },
  });
  return { sender, limits: await senderLimits(sender), accountPhoneNumbers: account.map((s) => s.phoneNumber) };
}

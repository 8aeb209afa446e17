// The messaging limit (docs/broadcasts.md "Messaging limit"): unique contacts reached outside
// an open service window in a rolling 24 hours, per business account (senderLimits'
// accountKey), against its tier. A contact whose window is open does not count; one already
// counted in the last 24 hours does not count again. The check and the count are one
// transaction under an advisory lock of the account, so two workers never admit past the tier.
import { plainTransaction } from "@/lib/db/plain-tx";
import { contactsMessagedSince } from "@/lib/domains/messages/reads";
import { accountSenderIds, messagingLimitUsage } from "@/lib/domains/senders/limits";
import type { Sender } from "@/lib/generated/prisma/client";
import type { SenderLimits } from "./sender-limits";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Parameter n as the UTC timestamp the columns hold (they are timestamp(3) without zone). */
const UTC = (n: number) => `($${n}::timestamptz AT TIME ZONE 'UTC')`;

export type Admission = {
  admitted: Set<string>;
  /** Set when some were refused: when the oldest counted contact leaves the 24 hours. */
  resumesAt: Date | null;
};

export async function admitContacts(
  limits: SenderLimits,
  sender: Pick<Sender, "id" | "customerId" | "wabaId">,
  phones: string[],
  now = new Date(),
): Promise<Admission> {
  if (phones.length === 0 || limits.messagingLimit === null) return { admitted: new Set(phones), resumesAt: null };
  const tier = limits.messagingLimit;
  const since = new Date(now.getTime() - DAY_MS);
  const senderId = sender.id;
  // Every send path's use (Message rows; lib/domains/senders/limits.ts), read before the lock;
  // the reservations below cover the broadcast sends admitted but not yet recorded.
  const accountIds = await accountSenderIds(sender);
  const usage = await messagingLimitUsage(sender.customerId, accountIds, now);
  const messaged = await contactsMessagedSince(sender.customerId, accountIds, phones, since);
  // A plain pg transaction (every batch runs it): its statements are raw, Prisma's CPU per statement is not needed.
  return plainTransaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, limits.accountKey);
    const open = await tx.$queryRawUnsafe<{ phone: string }[]>(
      `SELECT "contactPhoneNumber" AS phone FROM "Conversation"
        WHERE "senderId" = $1 AND "contactPhoneNumber" = ANY($2::text[]) AND "windowExpiresAt" > ${UTC(3)}`,
      senderId,
      phones,
      now.toISOString(),
    );
    const counted = await tx.$queryRawUnsafe<{ phone: string }[]>(
      `SELECT "phoneNumber" AS phone FROM "MessagingLimitContact"
        WHERE "accountKey" = $1 AND "phoneNumber" = ANY($2::text[]) AND "lastAt" > ${UTC(3)}`,
      limits.accountKey,
      phones,
      since.toISOString(),
    );
    const [{ reserved } = { reserved: 0 }] = await tx.$queryRawUnsafe<{ reserved: number }[]>(
      `SELECT count(*)::int AS reserved FROM "MessagingLimitContact" WHERE "accountKey" = $1 AND "lastAt" > ${UTC(2)}`,
      limits.accountKey,
      since.toISOString(),
    );
    // Both counts include most of the same contacts: the larger stands for their union.
    const used = Math.max(usage.usedLast24h, reserved);
    const free = new Set([...open, ...counted].map((r) => r.phone).concat(messaged));
    const admitted = new Set<string>();
    const toCount: string[] = [];
    let room = tier - used;
    for (const phone of phones) {
      if (free.has(phone)) admitted.add(phone);
      else if (room > 0) {
        room -= 1;
        admitted.add(phone);
        toCount.push(phone);
      }
    }
    const recount = [...counted.map((r) => r.phone).filter((p) => admitted.has(p)), ...toCount];
    if (recount.length > 0) {
      await tx.$executeRawUnsafe(
        `INSERT INTO "MessagingLimitContact" ("accountKey", "phoneNumber", "lastAt")
         SELECT $1, p, ${UTC(3)} FROM unnest($2::text[]) AS p
         ON CONFLICT ("accountKey", "phoneNumber") DO UPDATE SET "lastAt" = EXCLUDED."lastAt"`,
        limits.accountKey,
        recount,
        now.toISOString(),
      );
    }
    let resumesAt: Date | null = null;
    if (admitted.size < phones.length) {
      const [oldest] = await tx.$queryRawUnsafe<{ at: Date | null }[]>(
        `SELECT min("lastAt") AS at FROM "MessagingLimitContact" WHERE "accountKey" = $1 AND "lastAt" > ${UTC(2)}`,
        limits.accountKey,
        since.toISOString(),
      );
      resumesAt = new Date((oldest?.at ? new Date(oldest.at).getTime() : now.getTime()) + DAY_MS);
    }
    return { admitted, resumesAt };
  });
}

// The senders an agent is limited to (docs/members.md): given as phone numbers, stored as
// MemberSender rows of the same customer.
import { ApiError } from "@/lib/core/errors";
import type { Tx } from "@/lib/db";
import { type Role, SENDER_LIMITED_ROLES } from "@/lib/domains/auth/permissions";

export type SenderLimit = { limited: boolean; senderIds: string[] };

/**
 * What a role and a list of sender numbers mean: an agent with numbers is limited to those
 * senders (each must be one of the account's); anyone else, or an agent without numbers,
 * sees every sender. `field` names the input in the error (the form field, or a CLI flag).
 */
export async function senderLimitFor(
  tx: Tx,
  customerId: string,
  role: Role,
  phones: readonly string[],
  field = "senders",
): Promise<SenderLimit> {
  if (!SENDER_LIMITED_ROLES.includes(role) || phones.length === 0) return { limited: false, senderIds: [] };
  const rows = await tx.sender.findMany({
    where: { customerId, phoneNumber: { in: [...phones] } },
    select: { id: true, phoneNumber: true },
  });
  const missing = phones.filter((phone) => !rows.some((r) => r.phoneNumber === phone));
  if (missing.length > 0) {
    const message = `${missing.join(", ")} ${missing.length === 1 ? "is not a sender" : "are not senders"} of this account`;
    throw new ApiError("VALIDATION_FAILED", message, { fields: [{ path: field, message }] });
  }
  return { limited: true, senderIds: rows.map((r) => r.id) };
}

/** Replaces a member's sender rows with `limit` (the caller holds the member lock). */
export async function writeSenderLimit(tx: Tx, customerId: string, userId: string, limit: SenderLimit): Promise<void> {
  await tx.memberSender.deleteMany({ where: { userId, customerId } });
  if (limit.senderIds.length === 0) return;
  await tx.memberSender.createMany({
    data: limit.senderIds.map((senderId) => ({ userId, senderId, customerId })),
    skipDuplicates: true,
  });
}

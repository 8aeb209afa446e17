// A customer renames and removes its senders (docs/messaging.md "Senders"), from the API and the
// dashboard's senders page. A sender that never sent or received anything is deleted; one with
// history is deactivated instead: it sends no more and is never the default, while its
// conversations, messages, billing records and orders stay as they were.
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";
import { SenderInputError } from "./admin";
import { normalizePhone } from "./phone";

export type RemovedSender = { sender: Sender; outcome: "deleted" | "deactivated" };

async function ownSender(tx: Prisma.TransactionClient, p: Principal, phone: string): Promise<Sender> {
  const sender = await tx.sender.findFirst({ where: { customerId: p.customerId, phoneNumber: normalizePhone(phone) } });
  if (!sender) throw new SenderInputError("phone", `${phone} is not a sender of this account`);
  return sender;
}

/** Renames a sender (its display name; empty: none). */
export function renameSender(p: Principal, phone: string, displayName: string | null): Promise<Sender> {
  return db.$transaction(async (tx) => {
    const sender = await ownSender(tx, p, phone);
    return tx.sender.update({
      where: { id: sender.id, customerId: p.customerId },
      data: { displayName: displayName?.trim() || null },
    });
  });
}

/** Whether anything was ever sent or received through the sender, or billed to it. */
async function hasHistory(tx: Prisma.TransactionClient, p: Principal, senderId: string): Promise<boolean> {
  const where = { customerId: p.customerId, senderId };
  const [message, conversation, billing, order] = await Promise.all([
    tx.message.findFirst({ where, select: { id: true } }),
    tx.conversation.findFirst({ where, select: { id: true } }),
    tx.billingRecord.findFirst({ where, select: { id: true } }),
    tx.order.findFirst({ where, select: { id: true } }),
  ]);
  return Boolean(message || conversation || billing || order);
}

/**
 * Removes a sender: deleted when it has no history, else deactivated (DISCONNECTED, not the
 * default). When it was the default, the oldest active sender left becomes the default, in the
 * same transaction.
 */
export function removeSender(p: Principal, phone: string): Promise<RemovedSender> {
  return db.$transaction(async (tx) => {
    const sender = await ownSender(tx, p, phone);
    let removed: RemovedSender;
    if (await hasHistory(tx, p, sender.id)) {
      const updated = await tx.sender.update({
        where: { id: sender.id, customerId: p.customerId },
        data: { deactivatedAt: sender.deactivatedAt ?? new Date(), connectionStatus: "DISCONNECTED", isDefault: false },
      });
      removed = { sender: updated, outcome: "deactivated" };
    } else {
      await tx.sender.delete({ where: { id: sender.id, customerId: p.customerId } });
      removed = { sender, outcome: "deleted" };
    }
    if (sender.isDefault) {
      const next = await tx.sender.findFirst({
        where: { customerId: p.customerId, deactivatedAt: null, NOT: { id: sender.id } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true },
      });
      if (next) await tx.sender.update({ where: { id: next.id, customerId: p.customerId }, data: { isDefault: true } });
    }
    return removed;
  });
}

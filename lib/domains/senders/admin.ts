// Operator-side sender management (the CLI and the demo seed): connect a phone number to a customer.

import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { Prisma, type Sender } from "@/lib/generated/prisma/client";
import { parsePhone } from "./phone";
import { E164, normalizePhone } from "./service";

/** Bad operator input, named by the field it is about (the CLI shows it as that flag). */
export class SenderInputError extends ApiError {
  constructor(
    readonly field: "phone" | "phoneNumberId" | "customer",
    message: string,
  ) {
    super("VALIDATION_FAILED", message, { fields: [{ path: field, message }] });
    this.name = "SenderInputError";
  }
}

export type AddSenderInput = {
  customerId: string;
  phoneNumber: string;
  phoneNumberId?: string | null;
  wabaId?: string | null;
  displayName?: string | null;
  isDefault?: boolean;
};

/**
 * Adds a sender. The phone number must be international (the one parser, ./phone.ts); with isDefault (or when it is the
 * customer's first sender) it becomes the default and the others stop being default, in
 * one transaction.
 */
export async function addSender(
  input: AddSenderInput,
  by: Principal = systemPrincipal(input.customerId),
): Promise<Sender> {
  const parsed = parsePhone(input.phoneNumber);
  if (!parsed.ok) throw new SenderInputError("phone", parsed.message);
  const phoneNumber = parsed.e164;
  try {
    return await db.$transaction(async (tx) => {
      const customer = await tx.customer.findUnique({ where: { id: input.customerId }, select: { id: true } });
      if (!customer) throw new SenderInputError("customer", `no customer with id ${input.customerId}`);
      // A number this customer removed (deactivated, history kept) comes back as it was.
      const removed = await tx.sender.findFirst({
        where: { customerId: input.customerId, phoneNumber, deactivatedAt: { not: null } },
      });
      if (removed) {
        return tx.sender.update({
          where: { id: removed.id, customerId: input.customerId },
          data: { deactivatedAt: null, connectionStatus: "CONNECTED" },
        });
      }
      const existing = await tx.sender.count({ where: { customerId: input.customerId, deactivatedAt: null } });
      const isDefault = Boolean(input.isDefault) || existing === 0;
      if (isDefault) {
        await tx.sender.updateMany({
          where: { customerId: input.customerId, isDefault: true },
          data: { isDefault: false },
        });
      }
      const sender = await tx.sender.create({
        data: {
          customerId: input.customerId,
          phoneNumber,
          phoneNumberId: input.phoneNumberId ?? null,
          wabaId: input.wabaId ?? null,
          displayName: input.displayName ?? null,
          isDefault,
        },
      });
      await recordAudit(tx, {
        ...auditContext({ ...by, customerId: input.customerId }),
        action: "sender.added",
        target: { type: "sender", uid: sender.phoneNumber },
        details: { senderId: sender.id, phoneNumberId: sender.phoneNumberId, isDefault },
      });
      return sender;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      // With driver adapters the constraint sits under meta.driverAdapterError, not meta.target.
      const target = JSON.stringify(error.meta ?? {});
      if (target.includes("phoneNumberId")) {
        throw new SenderInputError("phoneNumberId", "is already used by another sender");
      }
      throw new SenderInputError("phone", `${phoneNumber} is already connected`);
    }
    throw error;
  }
}

/**
 * Makes one of the customer's senders (by phone number) its default, the others not, in
 * one transaction (the CLI's sender:default).
 */
export async function setDefaultSender(
  customerId: string,
  phone: string,
  by: Principal = systemPrincipal(customerId),
): Promise<Sender> {
  const phoneNumber = normalizePhone(phone);
  if (!E164.test(phoneNumber))
    throw new SenderInputError("phone", "must be a phone number with + and the country code");
  return db.$transaction(async (tx) => {
    const sender = await tx.sender.findFirst({ where: { customerId, phoneNumber } });
    if (!sender) throw new SenderInputError("phone", `${phoneNumber} is not a sender of customer ${customerId}`);
    if (sender.deactivatedAt) throw new SenderInputError("phone", `${phoneNumber} was removed: add it again first`);
    await tx.sender.updateMany({
      where: { customerId, isDefault: true, NOT: { id: sender.id } },
      data: { isDefault: false },
    });
    if (!sender.isDefault) {
      await recordAudit(tx, {
        ...auditContext({ ...by, customerId }),
        action: "sender.default_changed",
        target: { type: "sender", uid: sender.phoneNumber },
        details: { senderId: sender.id },
      });
    }
    return tx.sender.update({ where: { id: sender.id, customerId }, data: { isDefault: true } });
  });
}

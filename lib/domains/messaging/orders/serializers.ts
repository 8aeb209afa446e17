// An order as the API answers it (PublicOrder in ./schemas.ts), alone or with the receipt of
// the send that carried it. Every field is named here, so a new column never leaks.
import type { Version } from "@/lib/core/version";
import type { Sender } from "@/lib/domains/senders/service";
import type { Order, Prisma } from "@/lib/generated/prisma/client";
import { receiptResponse } from "../serializers";
import type { OrderSend } from "./service";

export function toPublicOrder(o: Order & { sender?: { phoneNumber: string } }) {
  const n = (v: Prisma.Decimal) => Number(v.toString());
  return {
    orderUid: o.id,
    uid: o.id,
    reference: o.reference,
    status: o.status,
    recipient: o.recipient,
    senderId: o.sender?.phoneNumber ?? null,
    currency: o.currency,
    items: o.items,
    subtotal: n(o.subtotal),
    tax: n(o.tax),
    shipping: n(o.shipping),
    discount: n(o.discount),
    total: n(o.total),
    lastMessageUid: o.lastMessageId,
    sendCount: o.sendCount,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

/** The receipt of an order send: the send's receipt, its message prefixed by the reference, and the order. */
export function orderReceipt(r: OrderSend, sender: Sender, version: Version) {
  const receipt = receiptResponse(r.send, sender, version);
  return {
    ...receipt,
    message: `Order ${r.order.reference}: ${receipt.message}`,
    data: { ...(receipt.data as Record<string, unknown>), order: toPublicOrder({ ...r.order, sender }) },
  };
}

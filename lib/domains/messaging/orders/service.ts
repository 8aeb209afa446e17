// Orders: create and send (order_details), follow up (order_status or resend), list with
// offset pagination, read. Every read and write carries the customer in its WHERE.
import { randomBytes } from "node:crypto";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { normalizePhone, type Sender } from "@/lib/domains/senders/service";
import { type Message, type Order, Prisma } from "@/lib/generated/prisma/client";
import { MessagingError } from "../errors";
import type { SendResult } from "../outgoing";
import { resumedSend } from "../resumed-send";
import { sendMessage } from "../send";
import { orderDetailsPayload, orderStatusPayload, referenceOf } from "./payloads";
import type { OrderFollowUpInput, OrderListInput, OrderSendInput } from "./schemas";

export type OrderSend = { order: Order; send: SendResult };
export type OffsetBlock = { limit: number; offset: number; count: number; total: number; has_more: boolean };

const newOrderUid = () => `ord_${randomBytes(12).toString("hex")}`;
const orderNotFound = (uid: string) =>
  new MessagingError("ORDER_NOT_FOUND", `Order ${uid} not found`, { orderUid: uid });

export async function sendNewOrder(p: Principal, sender: Sender, input: OrderSendInput): Promise<OrderSend> {
  // A retry after a crash (docs/idempotency.md): the order and its message exist already.
  const earlier = await resumedSend(p);
  if (earlier) return recordSent(p, await orderOfMessage(p, earlier.message), earlier);
  const o = input.order;
  const subtotal = o.items.reduce(
    (sum, i) => sum.plus(new Prisma.Decimal(i.amount).times(i.quantity)),
    new Prisma.Decimal(0),
  );
  const total = subtotal.plus(o.tax).plus(o.shipping).minus(o.discount);
  if (total.lt(0)) {
    throw new ApiError("VALIDATION_FAILED", "body.order.discount: the discount exceeds the order amounts", {
      fields: [{ path: "body.order.discount", message: "The discount exceeds the order amounts" }],
    });
  }
  const reference = o.reference ?? `ORD-${randomBytes(5).toString("hex").toUpperCase()}`;
  const taken = await db.order.findFirst({ where: { customerId: p.customerId, reference }, select: { id: true } });
  if (taken) {
    throw new MessagingError(
      "ORDER_REFERENCE_EXISTS",
      `An order with reference ${reference} exists; use POST /orders/${taken.id}/send`,
      {
        orderUid: taken.id,
      },
    );
  }
  const order = await db.order.create({
    data: {
      id: newOrderUid(),
      customerId: p.customerId,
      senderId: sender.id,
      recipient: input.to,
      reference,
      currency: o.currency,
      items: o.items as Prisma.InputJsonValue,
      subtotal,
      tax: o.tax,
      shipping: o.shipping,
      discount: o.discount,
      total,
    },
  });
  return sendAndRecord(p, sender, order, orderDetailsPayload(order, o.bodyText));
}

/** The order's own sender sends the follow-up (a number-scoped token reaches its sender's orders only). */
export async function followUpOrder(
  p: Principal,
  uid: string,
  input: OrderFollowUpInput,
): Promise<OrderSend & { sender: Sender }> {
  const found = await db.order.findFirst({
    where: { id: uid, customerId: p.customerId, ...(p.scopedSenderId ? { senderId: p.scopedSenderId } : {}) },
    include: { sender: true },
  });
  if (!found) throw orderNotFound(uid);
  const { sender, ...order } = found;
  if (!input.status) {
    return {
      sender,
      ...(await sendAndRecord(p, sender, order, orderDetailsPayload(order, input.text ?? "Here is your order again."))),
    };
  }
  const { count } = await db.order.updateMany({
    where: { id: uid, customerId: p.customerId },
    data: { status: input.status },
  });
  if (count === 0) throw orderNotFound(uid);
  const updated = { ...order, status: input.status };
  const text = input.text ?? `Your order ${updated.reference} is ${input.status.replace("_", " ")}.`;
  return { sender, ...(await sendAndRecord(p, sender, updated, orderStatusPayload(updated, text))) };
}

async function sendAndRecord(
  p: Principal,
  sender: Sender,
  order: Order,
  payload: ReturnType<typeof orderDetailsPayload>,
): Promise<OrderSend> {
  return recordSent(
    p,
    order,
    await sendMessage(p, sender, { sendRoute: "orders", recipient: order.recipient, payload }),
  );
}

/** The order's last message and count, once per message (a retry answered from it counts nothing again). */
async function recordSent(p: Principal, order: Order, send: SendResult): Promise<OrderSend> {
  const id = send.message.id;
  if (order.lastMessageId === id) return { order, send };
  const { count } = await db.order.updateMany({
    where: { id: order.id, customerId: p.customerId, OR: [{ lastMessageId: null }, { lastMessageId: { not: id } }] },
    data: { lastMessageId: id, sendCount: { increment: 1 } },
  });
  return { order: { ...order, lastMessageId: id, sendCount: order.sendCount + count }, send };
}

/** The order an order message was sent for (its reference is unique per customer). */
async function orderOfMessage(p: Principal, message: Message): Promise<Order> {
  const reference = referenceOf(message.payload);
  const order = reference ? await db.order.findFirst({ where: { customerId: p.customerId, reference } }) : null;
  if (!order) throw orderNotFound(reference ?? message.id);
  return order;
}

type OrderRow = Order & { sender: { phoneNumber: string } };
const WITH_SENDER = { sender: { select: { phoneNumber: true } } } as const;

export async function listOrders(
  p: Principal,
  sender: Sender | undefined,
  q: OrderListInput,
): Promise<{ orders: OrderRow[]; pagination: OffsetBlock }> {
  const where: Prisma.OrderWhereInput = { customerId: p.customerId };
  if (sender) where.senderId = sender.id;
  if (q.status) where.status = q.status;
  if (q.recipient) where.recipient = normalizePhone(q.recipient);
  const [total, orders] = await Promise.all([
    db.order.count({ where }),
    db.order.findMany({
      where,
      include: WITH_SENDER,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: q.offset,
      take: q.limit,
    }),
  ]);
  return {
    orders,
    pagination: {
      limit: q.limit,
      offset: q.offset,
      count: orders.length,
      total,
      has_more: q.offset + orders.length < total,
    },
  };
}

export async function getOrder(p: Principal, sender: Sender | undefined, uid: string): Promise<OrderRow> {
  const order = await db.order.findFirst({
    where: { id: uid, customerId: p.customerId, ...(sender ? { senderId: sender.id } : {}) },
    include: WITH_SENDER,
  });
  if (!order) throw orderNotFound(uid);
  return order;
}

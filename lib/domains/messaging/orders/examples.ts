// The OpenAPI examples of the order routes (docs/openapi.md "Adding a route"): one sample
// order through the serializers the routes answer with, sent as the sample message.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import { type Order, Prisma } from "@/lib/generated/prisma/client";
import { sampleMessage, sampleReceipt } from "../examples";
import { orderReceipt, toPublicOrder } from "./serializers";

const request = {
  to: sampleMessage.recipient,
  order: { currency: "usd", items: [{ name: "Mug", quantity: 1, amount: 8 }], tax: 1, shipping: 2, discount: 0 },
};
const orderRow: Order = {
  id: "ord_f5a71a389492c9446cf995ee",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  recipient: request.to,
  reference: "ORD-67A8BF34F0",
  status: "pending",
  currency: "USD",
  items: request.order.items,
  subtotal: new Prisma.Decimal(8),
  tax: new Prisma.Decimal(1),
  shipping: new Prisma.Decimal(2),
  discount: new Prisma.Decimal(0),
  total: new Prisma.Decimal(11),
  lastMessageId: "msg_fa9c36da9af88c918e75c09e",
  sendCount: 1,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};
const shippedRow = {
  ...orderRow,
  status: "shipped",
  lastMessageId: "msg_4de5c75662e412a1ea7a5059",
  sendCount: 2,
  updatedAt: exampleTime(60),
};

/** An order send's example: the receipt of its message, with the order. */
function orderSendExample(order: Order) {
  const message = { ...sampleMessage, id: order.lastMessageId ?? "", type: "interactive", sendRoute: "orders" };
  const send = { message, queued: false, template: null };
  const receipt = sampleReceipt(send);
  return {
    message: orderReceipt({ order, send }, sampleSender, "v3").message,
    response: { ...receipt.response, order: toPublicOrder({ ...order, sender: sampleSender }) },
  };
}
const order = toPublicOrder({ ...shippedRow, sender: sampleSender });

export const postOrdersSend = { request, ...orderSendExample(orderRow) };

export const postOrdersByOrderUidSend = {
  params: { orderUid: orderRow.id },
  request: { status: "shipped" as const },
  ...orderSendExample(shippedRow),
};

export const getOrders = {
  message: "Orders retrieved",
  response: listExample("orders", [order], { limit: 25, offset: 0, count: 1, total: 1, has_more: false }),
};

export const getOrdersByOrderUid = { params: { orderUid: orderRow.id }, message: "Order retrieved", response: order };

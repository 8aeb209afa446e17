// Orders: POST /orders/send and /orders/{orderUid}/send are send routes (limit class
// "send"); GET /orders and /orders/{orderUid} list and read with offset pagination (8.2).

import { listOf } from "@/lib/core/pagination";
import { DELIVERY_ERRORS } from "@/lib/domains/messaging/errors";
import * as examples from "@/lib/domains/messaging/orders/examples";
import {
  OrderFollowUpBody,
  OrderListPublic,
  OrderListQuery,
  OrderReceiptPublic,
  OrderSendBody,
  OrderUid,
  PublicOrder,
} from "@/lib/domains/messaging/orders/schemas";
import { orderReceipt, toPublicOrder } from "@/lib/domains/messaging/orders/serializers";
import { followUpOrder, getOrder, listOrders, sendNewOrder } from "@/lib/domains/messaging/orders/service";
import { type AnyRoute, ok, route, SEND_RESPONSE_HEADERS } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  feature: "messaging",
  tag: "Orders",
  tokenScope: "any",
  params: { orderUid: OrderUid },
  paramNotFound: { orderUid: "ORDER_NOT_FOUND" },
} as const;

export const messagingOrderRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "POST",
    path: "/orders/send",
    permission: "messages.send",
    example: examples.postOrdersSend,
    limit: "send",
    responseHeaders: SEND_RESPONSE_HEADERS,
    sender: "resolve",
    idempotent: "orders",
    summary: "Create and send an order",
    description: "Creates an order and sends it as an order-details message.",
    body: OrderSendBody,
    response: OrderReceiptPublic,
    errors: ["ORDER_REFERENCE_EXISTS", ...DELIVERY_ERRORS],
    handler: async ({ principal, sender, body, version }) =>
      orderReceipt(await sendNewOrder(principal, sender, body), sender, version),
  }),
  route({
    ...common,
    method: "POST",
    path: "/orders/:orderUid/send",
    permission: "messages.send",
    example: examples.postOrdersByOrderUidSend,
    limit: "send",
    responseHeaders: SEND_RESPONSE_HEADERS,
    sender: "none",
    idempotent: "order",
    summary: "Resend an order or its status",
    description: "Sends the order again, or an order-status update when status is given, from the order's sender.",
    body: OrderFollowUpBody,
    response: OrderReceiptPublic,
    errors: [...DELIVERY_ERRORS, "CONFLICT"],
    handler: async ({ principal, body, params, version }) => {
      const r = await followUpOrder(principal, params.orderUid, body);
      return orderReceipt(r, r.sender, version);
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/orders",
    permission: "messages.read",
    example: examples.getOrders,
    limit: "global",
    sender: "resolve",
    senderOptions: { useDefault: false, requireSetup: false },
    summary: "List orders",
    description: "Offset pagination: limit 1-100 (default 25) and offset.",
    query: OrderListQuery,
    response: OrderListPublic,
    handler: async ({ principal, sender, query }) => {
      const { orders, pagination } = await listOrders(principal, sender, query);
      return ok("Orders retrieved", { ...listOf("orders", orders.map(toPublicOrder)), pagination });
    },
  }),
  route({
    ...common,
    method: "GET",
    path: "/orders/:orderUid",
    permission: "messages.read",
    example: examples.getOrdersByOrderUid,
    limit: "global",
    sender: "resolve",
    senderOptions: { useDefault: false, requireSetup: false },
    summary: "Read an order",
    response: PublicOrder,
    handler: async ({ principal, sender, params }) =>
      ok("Order retrieved", toPublicOrder(await getOrder(principal, sender, params.orderUid))),
  }),
];

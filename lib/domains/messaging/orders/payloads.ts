// Orders -> the provider's interactive order_details and order_status messages.

import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import type { Order } from "@/lib/generated/prisma/client";

const OFFSET = 100;
const money = (v: unknown) => ({ value: Math.round(Number(String(v)) * OFFSET), offset: OFFSET });
type Item = { name: string; quantity: number; amount: number; retailerId?: string };

export function orderDetailsPayload(order: Order, bodyText: string): ProviderMessagePayload {
  const items = (order.items as Item[]).map((i, n) => ({
    retailer_id: i.retailerId ?? `item-${n + 1}`,
    name: i.name,
    amount: money(i.amount),
    quantity: i.quantity,
  }));
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: order.recipient.replace(/^\+/, ""),
    type: "interactive",
    interactive: {
      type: "order_details",
      body: { text: bodyText },
      action: {
        name: "review_and_pay",
        parameters: {
          reference_id: order.reference,
          type: "digital-goods",
          currency: order.currency,
          total_amount: money(order.total),
          order: {
            status: order.status,
            items,
            subtotal: money(order.subtotal),
            tax: money(order.tax),
            shipping: money(order.shipping),
            discount: money(order.discount),
          },
        },
      },
    },
  };
}

export function orderStatusPayload(order: Order, text: string): ProviderMessagePayload {
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: order.recipient.replace(/^\+/, ""),
    type: "interactive",
    interactive: {
      type: "order_status",
      body: { text },
      action: { name: "review_order", parameters: { reference_id: order.reference, order: { status: order.status } } },
    },
  };
}

/** The order reference an order message carries (order_details and order_status alike). */
export function referenceOf(payload: unknown): string | undefined {
  const interactive = (payload as { interactive?: { action?: { parameters?: { reference_id?: unknown } } } })
    ?.interactive;
  const reference = interactive?.action?.parameters?.reference_id;
  return typeof reference === "string" ? reference : undefined;
}

// Examples of the messaging-orders routes (messaging-orders.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** POST /orders/send */
export const postOrdersSend = {
  request: {
    to: "+18245236420",
    order: {
      currency: "usd",
      items: [
        {
          name: "Mug",
          quantity: 1,
          amount: 8,
        },
      ],
      tax: 1,
      shipping: 2,
      discount: 0,
    },
  },
  message:
    "Order ORD-67A8BF34F0: Message accepted by the provider; delivery updates follow through webhooks and reports",
  response: {
    messageUid: "msg_fa9c36da9af88c918e75c09e",
    messageId: "wamid.8aTd_BYZuIOrPI8XIApB_7KpfaaiCxAw",
    status: "accepted",
    queued: false,
    senderId: "+18247839850",
    phoneNumberId: "10207085058909987",
    recipient: "+18245236420",
    type: "interactive",
    sendRoute: "orders",
    template: null,
    createdAt: "2026-11-23T21:05:55.537Z",
    order: {
      orderUid: "ord_f5a71a389492c9446cf995ee",
      uid: "ord_f5a71a389492c9446cf995ee",
      reference: "ORD-67A8BF34F0",
      status: "pending",
      recipient: "+18245236420",
      senderId: "+18247839850",
      currency: "USD",
      items: [
        {
          name: "Mug",
          amount: 8,
          quantity: 1,
        },
      ],
      subtotal: 8,
      tax: 1,
      shipping: 2,
      discount: 0,
      total: 11,
      lastMessageUid: "msg_fa9c36da9af88c918e75c09e",
      sendCount: 1,
      createdAt: "2026-11-23T21:05:55.469Z",
      updatedAt: "2026-11-23T21:05:55.469Z",
    },
  },
} as const;

/** POST /orders/:orderUid/send */
export const postOrdersByOrderUidSend = {
  params: {
    orderUid: "ord_f5a71a389492c9446cf995ee",
  },
  request: {
    status: "shipped",
  },
  message:
    "Order ORD-67A8BF34F0: Message accepted by the provider; delivery updates follow through webhooks and reports",
  response: {
    messageUid: "msg_4de5c75662e412a1ea7a5059",
    messageId: "wamid.fo8_ZGW_vF8bKFo11hm74gsh_oFiOjCk",
    status: "accepted",
    queued: false,
    senderId: "+18247839850",
    phoneNumberId: "10207085058909987",
    recipient: "+18245236420",
    type: "interactive",
    sendRoute: "orders",
    template: null,
    createdAt: "2026-11-23T21:05:56.012Z",
    order: {
      orderUid: "ord_f5a71a389492c9446cf995ee",
      uid: "ord_f5a71a389492c9446cf995ee",
      reference: "ORD-67A8BF34F0",
      status: "shipped",
      recipient: "+18245236420",
      senderId: "+18247839850",
      currency: "USD",
      items: [
        {
          name: "Mug",
          amount: 8,
          quantity: 1,
        },
      ],
      subtotal: 8,
      tax: 1,
      shipping: 2,
      discount: 0,
      total: 11,
      lastMessageUid: "msg_4de5c75662e412a1ea7a5059",
      sendCount: 2,
      createdAt: "2026-11-23T21:05:55.469Z",
      updatedAt: "2026-11-23T21:05:55.787Z",
    },
  },
} as const;

/** GET /orders */
export const getOrders = {
  message: "Orders retrieved",
  response: {
    orders: [
      {
        orderUid: "ord_f5a71a389492c9446cf995ee",
        uid: "ord_f5a71a389492c9446cf995ee",
        reference: "ORD-67A8BF34F0",
        status: "shipped",
        recipient: "+18245236420",
        senderId: "+18247839850",
        currency: "USD",
        items: [
          {
            name: "Mug",
            amount: 8,
            quantity: 1,
          },
        ],
        subtotal: 8,
        tax: 1,
        shipping: 2,
        discount: 0,
        total: 11,
        lastMessageUid: "msg_4de5c75662e412a1ea7a5059",
        sendCount: 2,
        createdAt: "2026-11-23T21:05:55.469Z",
        updatedAt: "2026-11-23T21:05:56.083Z",
      },
    ],
    items: [
      {
        orderUid: "ord_f5a71a389492c9446cf995ee",
        uid: "ord_f5a71a389492c9446cf995ee",
        reference: "ORD-67A8BF34F0",
        status: "shipped",
        recipient: "+18245236420",
        senderId: "+18247839850",
        currency: "USD",
        items: [
          {
            name: "Mug",
            amount: 8,
            quantity: 1,
          },
        ],
        subtotal: 8,
        tax: 1,
        shipping: 2,
        discount: 0,
        total: 11,
        lastMessageUid: "msg_4de5c75662e412a1ea7a5059",
        sendCount: 2,
        createdAt: "2026-11-23T21:05:55.469Z",
        updatedAt: "2026-11-23T21:05:56.083Z",
      },
    ],
    pagination: {
      limit: 25,
      offset: 0,
      count: 1,
      total: 1,
      has_more: false,
    },
  },
} as const;

/** GET /orders/:orderUid */
export const getOrdersByOrderUid = {
  params: {
    orderUid: "ord_f5a71a389492c9446cf995ee",
  },
  message: "Order retrieved",
  response: {
    orderUid: "ord_f5a71a389492c9446cf995ee",
    uid: "ord_f5a71a389492c9446cf995ee",
    reference: "ORD-67A8BF34F0",
    status: "shipped",
    recipient: "+18245236420",
    senderId: "+18247839850",
    currency: "USD",
    items: [
      {
        name: "Mug",
        amount: 8,
        quantity: 1,
      },
    ],
    subtotal: 8,
    tax: 1,
    shipping: 2,
    discount: 0,
    total: 11,
    lastMessageUid: "msg_4de5c75662e412a1ea7a5059",
    sendCount: 2,
    createdAt: "2026-11-23T21:05:55.469Z",
    updatedAt: "2026-11-23T21:05:56.083Z",
  },
} as const;

// Examples of the messaging routes (messaging.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** POST /send */
export const postSend = {
  request: {
    to: "+18240249823",
    template: {
      name: "order_update",
      language: "en",
    },
  },
  message: "Message accepted by the provider; delivery updates follow through webhooks and reports",
  response: {
    messageUid: "msg_404bee62d116f57a1c0d01f1",
    messageId: "wamid.1nabCai2QW3-Za4_ehRmr33RvNVbDb70",
    status: "accepted",
    queued: false,
    senderId: "+18247839850",
    phoneNumberId: "10207085058909987",
    recipient: "+18240249823",
    type: "template",
    sendRoute: "send",
    template: {
      name: "order_update",
      language: "en",
      category: "UTILITY",
    },
    createdAt: "2026-11-23T21:05:52.642Z",
  },
} as const;

/** POST /chat */
export const postChat = {
  request: {
    to: "+18242649185",
    text: "Hello",
  },
  message: "Message accepted by the provider; delivery updates follow through webhooks and reports",
  response: {
    messageUid: "msg_fd5feacd3b935b16b095161d",
    messageId: "wamid.6hJ-a3a0LCePRWPQPiYWrmQ68HB3t3BY",
    status: "accepted",
    queued: false,
    senderId: "+18247839850",
    phoneNumberId: "10207085058909987",
    recipient: "+18242649185",
    type: "text",
    sendRoute: "chat",
    template: null,
    createdAt: "2026-11-23T21:05:54.841Z",
  },
} as const;

/** POST /messages */
export const postMessages = {
  request: {
    to: "+18240174597",
    type: "template",
    template: {
      name: "spring_sale",
      language: {
        code: "en",
      },
    },
  },
  response: {
    messaging_product: "whatsapp",
    contacts: [
      {
        input: "+18240174597",
        wa_id: "18240174597",
      },
    ],
    messages: [
      {
        id: "wamid.r-pJy9hjoF0u3K7BOLsZcba5L_sTB1bf",
        message_status: "accepted",
      },
    ],
  },
} as const;

/** POST /:phoneNumberId/messages */
export const postByPhoneNumberIdMessages = {
  params: {
    phoneNumberId: "10207085058909987",
  },
  request: {
    to: "+18240174597",
    type: "template",
    template: {
      name: "spring_sale",
      language: {
        code: "en",
      },
    },
  },
  response: {
    messaging_product: "whatsapp",
    contacts: [
      {
        input: "+18240174597",
        wa_id: "18240174597",
      },
    ],
    messages: [
      {
        id: "wamid.iJNZOcZ-hTuwuJgkkVpp1sTEMKDd4m76",
        message_status: "accepted",
      },
    ],
  },
} as const;

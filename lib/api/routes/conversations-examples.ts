// Examples of the conversations routes (conversations.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** One conversation as the API answers it; the examples below differ from it only where shown. */
const conversation = {
  conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
  uid: "conv_55fef5a63b9d9beba6aa7cf7",
  senderId: "+18249845275",
  phoneNumberId: "10211970536442072",
  contactPhoneNumber: "+18246194658",
  contactName: "Contact 4658",
  status: "OPEN",
  unreadCount: 1,
  lastMessageAt: "2026-11-23T21:05:57.000Z",
  lastInboundAt: "2026-11-23T21:05:57.000Z",
  windowExpiresAt: "2026-11-24T21:05:57.000Z",
  windowOpen: true,
  lastMessagePreview: "Hi there",
  blacklisted: false,
  createdAt: "2026-11-23T21:05:57.921Z",
  updatedAt: "2026-11-23T21:05:57.921Z",
} as const;

/** GET /conversations */
export const getConversations = {
  message: "Conversations retrieved",
  response: {
    scope: "user",
    senderId: null,
    conversations: [
      {
        ...conversation,
      },
    ],
    items: [
      {
        ...conversation,
      },
    ],
    pagination: {
      page: 1,
      limit: 50,
      total: 1,
      totalPages: 1,
      count: 1,
      hasMore: false,
    },
  },
} as const;

/** GET /conversations/:conversationUid */
export const getConversationsByConversationUid = {
  params: {
    conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
  },
  message: "Conversation retrieved",
  response: {
    ...conversation,
  },
} as const;

/** POST /conversations/:conversationUid */
export const postConversationsByConversationUid = {
  params: {
    conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
  },
  request: {
    conversation: {
      markRead: true,
    },
  },
  message: "Conversation updated",
  response: {
    ...conversation,
    unreadCount: 0,
    lastMessageAt: "2026-11-23T21:05:58.552Z",
    lastMessagePreview: "Hello back",
    updatedAt: "2026-11-23T21:05:58.698Z",
  },
} as const;

/** GET /conversations/:conversationUid/messages */
export const getConversationsByConversationUidMessages = {
  params: {
    conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
  },
  message: "Conversation messages retrieved",
  response: {
    conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
    messages: [
      {
        messageUid: "cmsg_01a20a3ad725000022a52790df1cf",
        conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
        direction: "inbound",
        type: "text",
        content: {
          text: {
            body: "Hi there",
          },
        },
        status: "received",
        providerMessageId: "wamid.Q7MTJmjhYW9eqGhNrx9JDkkGPFwoD7h4",
        sentBy: "contact",
        sentByLabel: "Contact 4658",
        errorCode: null,
        errorMessage: null,
        timestamp: "2026-11-23T21:05:57.000Z",
      },
    ],
    items: [
      {
        messageUid: "cmsg_01a20a3ad725000022a52790df1cf",
        conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
        direction: "inbound",
        type: "text",
        content: {
          text: {
            body: "Hi there",
          },
        },
        status: "received",
        providerMessageId: "wamid.Q7MTJmjhYW9eqGhNrx9JDkkGPFwoD7h4",
        sentBy: "contact",
        sentByLabel: "Contact 4658",
        errorCode: null,
        errorMessage: null,
        timestamp: "2026-11-23T21:05:57.000Z",
      },
    ],
    pagination: {
      page: 1,
      limit: 50,
      total: 1,
      totalPages: 1,
      count: 1,
      hasMore: false,
    },
  },
} as const;

/** POST /conversations/:conversationUid/messages */
export const postConversationsByConversationUidMessages = {
  params: {
    conversationUid: "conv_55fef5a63b9d9beba6aa7cf7",
  },
  request: {
    message: {
      type: "text",
      text: {
        body: "Hello back",
      },
    },
  },
  message: "Message accepted by the provider; delivery updates follow through webhooks and reports",
  response: {
    messageUid: "msg_a1dec5428e8f8ab858263ed9",
    messageId: "wamid.A3UZAPTn9tG1CZ4k30GIcPV53hc2tQ2g",
    status: "accepted",
    queued: false,
    senderId: "+18249845275",
    phoneNumberId: "10211970536442072",
    recipient: "+18246194658",
    type: "text",
    sendRoute: "chat",
    template: null,
    createdAt: "2026-11-23T21:05:58.552Z",
  },
} as const;

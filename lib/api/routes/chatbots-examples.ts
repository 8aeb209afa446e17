// Examples of the chatbots routes (chatbots.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** One chatbot as the API answers it; the examples below differ from it only where shown. */
const chatbot = {
  chatbotUid: "cbt_mwtr9dy580d00daf32ad1db4ff17",
  uid: "cbt_mwtr9dy580d00daf32ad1db4ff17",
  senderId: "+18245137827",
  phoneNumberId: "1045901813505644",
  name: "Front desk",
  status: "INACTIVE",
  rules: [
    {
      match: {
        type: "keyword",
        value: "hours",
      },
      reply: {
        text: "Open 9 to 5",
        type: "text",
      },
    },
  ],
  fallbackReply: null,
  businessHours: null,
  createdAt: "2026-11-23T21:05:51.587Z",
  updatedAt: "2026-11-23T21:05:51.587Z",
} as const;

/** GET /chatbots */
export const getChatbots = {
  message: "Chatbots retrieved",
  response: {
    senderId: null,
    scope: "user",
    chatbots: [
      {
        ...chatbot,
      },
    ],
    items: [
      {
        ...chatbot,
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

/** POST /chatbots */
export const postChatbots = {
  request: {
    chatbot: {
      name: "Front desk",
      rules: [
        {
          match: {
            type: "keyword",
            value: "hours",
          },
          reply: {
            type: "text",
            text: "Open 9 to 5",
          },
        },
      ],
    },
  },
  message: "Chatbot created",
  response: {
    ...chatbot,
  },
} as const;

/** GET /chatbots/:chatbotUid */
export const getChatbotsByChatbotUid = {
  params: {
    chatbotUid: "cbt_mwtr9dy580d00daf32ad1db4ff17",
  },
  message: "Chatbot retrieved",
  response: {
    ...chatbot,
  },
} as const;

/** POST /chatbots/:chatbotUid */
export const postChatbotsByChatbotUid = {
  params: {
    chatbotUid: "cbt_mwtr9dy580d00daf32ad1db4ff17",
  },
  request: {
    chatbot: {
      name: "Desk",
    },
  },
  message: "Chatbot updated",
  response: {
    ...chatbot,
    name: "Desk",
    updatedAt: "2026-11-23T21:05:51.884Z",
  },
} as const;

/** POST /chatbots/:chatbotUid/test */
export const postChatbotsByChatbotUidTest = {
  params: {
    chatbotUid: "cbt_mwtr9dy580d00daf32ad1db4ff17",
  },
  request: {
    text: "hours?",
  },
  message: "Chatbot test",
  response: {
    chatbotUid: "cbt_mwtr9dy580d00daf32ad1db4ff17",
    matchedRule: null,
    reply: null,
    handoff: false,
    withinBusinessHours: true,
    timedOut: false,
  },
} as const;

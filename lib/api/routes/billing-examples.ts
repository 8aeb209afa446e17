// Examples of the billing routes (billing.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** GET /billing/messages */
export const getBillingMessages = {
  message: "Billing records retrieved",
  response: {
    senderId: null,
    phoneNumberId: null,
    scope: "user",
    billingRecords: [],
    pagination: {
      page: 1,
      limit: 50,
      total: 0,
      totalPages: 0,
      count: 0,
      hasMore: false,
    },
  },
} as const;

/** GET /billing/history */
export const getBillingHistory = {
  query: {
    senderId: "+18242773687",
  },
  message: "Billing history retrieved",
  response: {
    senderId: "+18242773687",
    phoneNumberId: "1079889447786413",
    scope: "sender",
    transactions: [],
    summary: {
      credits: 0,
      debits: 0,
      refunds: 0,
      adjustments: 0,
      balance: 0,
      currency: "USD",
    },
    pagination: {
      page: 1,
      limit: 50,
      total: 0,
      totalPages: 0,
      count: 0,
      hasMore: false,
    },
  },
} as const;

/** GET /billing/history/:senderId */
export const getBillingHistoryBySenderId = {
  params: {
    senderId: "%2B18242773687",
  },
  message: "Billing history retrieved",
  response: {
    senderId: "+18242773687",
    phoneNumberId: "1079889447786413",
    scope: "sender",
    transactions: [],
    summary: {
      credits: 0,
      debits: 0,
      refunds: 0,
      adjustments: 0,
      balance: 0,
      currency: "USD",
    },
    pagination: {
      page: 1,
      limit: 50,
      total: 0,
      totalPages: 0,
      count: 0,
      hasMore: false,
    },
  },
} as const;

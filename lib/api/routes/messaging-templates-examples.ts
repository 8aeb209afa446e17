// Examples of the messaging-templates routes (messaging-templates.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** GET /templates */
export const getTemplates = {
  message: "Templates retrieved",
  response: {
    templates: [
      {
        templateUid: "cmwtr9huj001sug7dyzwziep1",
        uid: "cmwtr9huj001sug7dyzwziep1",
        name: "spring_sale",
        language: "en",
        category: "MARKETING",
        status: "APPROVED",
        quality: null,
        components: [
          {
            text: "Hello {{1}}",
            type: "BODY",
          },
        ],
        rejectionReason: null,
        providerTemplateId: "100224194498964",
        createdAt: "2026-11-23T21:05:56.635Z",
        updatedAt: "2026-11-23T21:05:56.635Z",
        source: "MANUAL",
        correctCategory: null,
      },
    ],
    items: [
      {
        templateUid: "cmwtr9huj001sug7dyzwziep1",
        uid: "cmwtr9huj001sug7dyzwziep1",
        name: "spring_sale",
        language: "en",
        category: "MARKETING",
        status: "APPROVED",
        quality: null,
        components: [
          {
            text: "Hello {{1}}",
            type: "BODY",
          },
        ],
        rejectionReason: null,
        providerTemplateId: "100224194498964",
        createdAt: "2026-11-23T21:05:56.635Z",
        updatedAt: "2026-11-23T21:05:56.635Z",
        source: "MANUAL",
        correctCategory: null,
      },
    ],
    pagination: {
      page: 1,
      limit: 50,
      total: 2,
      totalPages: 1,
      count: 2,
      hasMore: false,
    },
  },
} as const;

/** GET /templates/:identifier */
export const getTemplatesByIdentifier = {
  params: {
    identifier: "cmwtr9huf001rug7d5jfih57c",
  },
  message: "Template retrieved",
  response: {
    templateUid: "cmwtr9huf001rug7d5jfih57c",
    uid: "cmwtr9huf001rug7d5jfih57c",
    name: "order_update",
    language: "en",
    category: "UTILITY",
    status: "APPROVED",
    quality: null,
    components: [
      {
        text: "Hello {{1}}",
        type: "BODY",
      },
    ],
    rejectionReason: null,
    providerTemplateId: "100932607170622",
    createdAt: "2026-11-23T21:05:56.631Z",
    updatedAt: "2026-11-23T21:05:56.631Z",
    source: "MANUAL",
    correctCategory: null,
  },
} as const;

/** POST /templates */
export const postTemplates = {
  request: {
    template: {
      name: "shipping_notice",
      language: "en_US",
      category: "UTILITY",
      components: [
        {
          type: "BODY",
          text: "Shipped {{1}}",
        },
      ],
    },
  },
  message: "Template created and submitted for review",
  response: {
    templateUid: "cmwtr9hz4001tug7dque0sg6i",
    uid: "cmwtr9hz4001tug7dque0sg6i",
    name: "shipping_notice",
    language: "en_US",
    category: "UTILITY",
    status: "PENDING",
    quality: null,
    components: [
      {
        text: "Shipped {{1}}",
        type: "BODY",
      },
    ],
    rejectionReason: null,
    providerTemplateId: "733427732204974",
    createdAt: "2026-11-23T21:05:56.800Z",
    updatedAt: "2026-11-23T21:05:56.800Z",
    source: "MANUAL",
    correctCategory: null,
  },
} as const;

/** POST /templates/sync */
export const postTemplatesSync = {
  message: "Templates synced",
  response: {
    synced: 1,
  },
} as const;

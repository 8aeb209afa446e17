// Examples of the blacklist routes (blacklist.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** POST /blacklist */
export const postBlacklist = {
  request: {
    phoneNumber: "+18244752966",
    reason: "asked",
  },
  message: "Number blacklisted",
  response: {
    phoneNumber: "+18244752966",
    reason: "asked",
    source: "api",
    inboundMessageId: null,
    createdAt: "2026-11-23T21:05:50.886Z",
  },
} as const;

/** POST /blacklist/remove */
export const postBlacklistRemove = {
  request: {
    phoneNumber: "+18244752966",
  },
  message: "Number removed from the blacklist",
  response: {
    senderId: "+18244809813",
    phoneNumber: "+18244752966",
    removed: true,
  },
} as const;

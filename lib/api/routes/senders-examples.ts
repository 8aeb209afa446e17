// Examples of the senders routes (senders.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them.

const connected = {
  phoneNumber: "+15550001234",
  phoneNumberId: "912345678900001",
  displayName: null,
  isDefault: true,
  status: "CONNECTED",
  createdAt: "2026-11-23T21:05:49.937Z",
} as const;
const added = {
  phoneNumber: "+15550009876",
  phoneNumberId: "934567890100002",
  displayName: null,
  isDefault: false,
  status: "CONNECTED",
  createdAt: "2026-11-23T22:14:02.511Z",
} as const;

/** GET /senders */
export const getSenders = {
  message: "Senders retrieved",
  response: { senders: [connected, added], items: [connected, added] },
} as const;

/** POST /senders */
export const postSenders = {
  request: { sender: { phoneNumber: "+15550009876", makeDefault: false } },
  message: "Sender connected",
  response: added,
} as const;

/** POST /senders/{senderId}/default */
export const postSendersBySenderIdDefault = {
  params: { senderId: "+15550009876" },
  message: "Default sender set",
  response: { ...added, isDefault: true },
} as const;

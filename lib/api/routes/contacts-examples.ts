// Examples of the contacts routes (contacts.ts) in the OpenAPI document (docs/openapi.md). tsc checks
// each against its route's schemas (RouteExample in route-definition.ts) and
// lib/api/openapi-examples.test.ts parses it with them. Taken from real answers of the router.

/** GET /contact-books */
export const getContactBooks = {
  message: "Contact books retrieved",
  response: {
    contactBooks: [
      {
        contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
        uid: "cmwtr9coo000zug7dc0cbdjah",
        name: "VIP",
        description: "",
        color: "#4F46E5",
        status: "ACTIVE",
        contactCount: 0,
        createdAt: "2026-11-23T21:05:49.937Z",
        updatedAt: "2026-11-23T21:05:49.937Z",
      },
    ],
    items: [
      {
        contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
        uid: "cmwtr9coo000zug7dc0cbdjah",
        name: "VIP",
        description: "",
        color: "#4F46E5",
        status: "ACTIVE",
        contactCount: 0,
        createdAt: "2026-11-23T21:05:49.937Z",
        updatedAt: "2026-11-23T21:05:49.937Z",
      },
    ],
    pagination: {
      page: 1,
      limit: 50,
      count: 1,
      hasMore: false,
    },
  },
} as const;

/** POST /contact-books */
export const postContactBooks = {
  request: {
    contactBook: {
      name: "VIP",
    },
  },
  message: "Contact book created",
  response: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
    uid: "cmwtr9coo000zug7dc0cbdjah",
    name: "VIP",
    description: "",
    color: "#4F46E5",
    status: "ACTIVE",
    contactCount: 0,
    createdAt: "2026-11-23T21:05:49.937Z",
    updatedAt: "2026-11-23T21:05:49.937Z",
  },
} as const;

/** GET /contact-books/:contactBookUid */
export const getContactBooksByContactBookUid = {
  params: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
  },
  message: "Contact book retrieved",
  response: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
    uid: "cmwtr9coo000zug7dc0cbdjah",
    name: "VIP",
    description: "",
    color: "#4F46E5",
    status: "ACTIVE",
    contactCount: 0,
    createdAt: "2026-11-23T21:05:49.937Z",
    updatedAt: "2026-11-23T21:05:49.937Z",
  },
} as const;

/** POST /contact-books/:contactBookUid */
export const postContactBooksByContactBookUid = {
  params: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
  },
  request: {
    contactBook: {
      name: "VIPs",
    },
  },
  message: "Contact book updated",
  response: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
    uid: "cmwtr9coo000zug7dc0cbdjah",
    name: "VIPs",
    description: "",
    color: "#4F46E5",
    status: "ACTIVE",
    contactCount: 0,
    createdAt: "2026-11-23T21:05:49.937Z",
    updatedAt: "2026-11-23T21:05:50.202Z",
  },
} as const;

/** GET /contact-books/:contactBookUid/contacts */
export const getContactBooksByContactBookUidContacts = {
  params: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
  },
  message: "Contacts retrieved",
  response: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
    contacts: [
      {
        contactUid: "cmwtr9d570001a41e879271d8",
        uid: "cmwtr9d570001a41e879271d8",
        phoneNumber: "+18244752966",
        name: "Ada",
        email: null,
        customFields: {
          city: "Paris",
        },
        createdAt: "2026-11-23T21:05:50.444Z",
        updatedAt: "2026-11-23T21:05:50.444Z",
      },
    ],
    items: [
      {
        contactUid: "cmwtr9d570001a41e879271d8",
        uid: "cmwtr9d570001a41e879271d8",
        phoneNumber: "+18244752966",
        name: "Ada",
        email: null,
        customFields: {
          city: "Paris",
        },
        createdAt: "2026-11-23T21:05:50.444Z",
        updatedAt: "2026-11-23T21:05:50.444Z",
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

/** POST /contact-books/:contactBookUid/contacts/bulk */
export const postContactBooksByContactBookUidContactsBulk = {
  params: {
    contactBookUid: "cmwtr9coo000zug7dc0cbdjah",
  },
  request: {
    contacts: [
      {
        phoneNumber: "+18244752966",
        name: "Ada",
        customFields: {
          city: "Paris",
        },
      },
      {
        phoneNumber: "12",
      },
    ],
  },
  message: "Contacts uploaded; 1 row(s) were rejected",
  response: {
    received: 2,
    created: 1,
    updated: 0,
    failed: 1,
    errors: [
      {
        index: 1,
        error_code: "INVALID_PHONE_NUMBER",
        message: '"12" is not a valid phone number (E.164, e.g. +14155550123)',
      },
    ],
  },
} as const;

/** GET /contact-fields */
export const getContactFields = {
  message: "Contact fields retrieved",
  response: {
    fields: [
      {
        key: "city",
        label: "City",
        type: "text",
        createdAt: "2026-11-23T21:05:50.297Z",
      },
    ],
    items: [
      {
        key: "city",
        label: "City",
        type: "text",
        createdAt: "2026-11-23T21:05:50.297Z",
      },
    ],
  },
} as const;

/** POST /contact-fields */
export const postContactFields = {
  request: {
    field: {
      key: "city",
      label: "City",
      type: "text",
    },
  },
  message: "Contact field created",
  response: {
    key: "city",
    label: "City",
    type: "text",
    createdAt: "2026-11-23T21:05:50.297Z",
  },
} as const;

/** GET /blacklist */
export const getBlacklist = {
  message: "Blacklist retrieved",
  response: {
    senderId: "+18244809813",
    phoneNumberId: "10199906489260869",
    entries: [
      {
        phoneNumber: "+18244752966",
        reason: "asked",
        source: "api",
        inboundMessageId: null,
        createdAt: "2026-11-23T21:05:50.886Z",
      },
    ],
    items: [
      {
        phoneNumber: "+18244752966",
        reason: "asked",
        source: "api",
        inboundMessageId: null,
        createdAt: "2026-11-23T21:05:50.886Z",
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

// The sample sender of the OpenAPI examples (docs/openapi.md "Adding a route"): the domains
// whose answers name a sender build their examples on this one row.
import { EXAMPLE_TIME, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import type { Sender } from "@/lib/generated/prisma/client";

export const sampleSender: Sender = {
  id: "cmwtr8z1k0001ug7dsender001",
  customerId: SAMPLE_CUSTOMER_ID,
  phoneNumber: "+18244042470",
  phoneNumberId: "10177673113828900",
  wabaId: "2094837261",
  displayName: null,
  connectionStatus: "CONNECTED",
  isDefault: true,
  optOutKeywords: [],
  optInKeywords: [],
  deactivatedAt: null,
  throughputPerSecond: 80,
  messagingLimit: 10_000,
  autoAssign: false,
  autoAssignCap: 10,
  autoAssignLastUserId: null,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

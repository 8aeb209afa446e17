// The OpenAPI examples of the sender routes (docs/openapi.md "Adding a route"): the sample
// sender and a second one, through the serializer the routes answer with.
import { exampleTime, listExample } from "@/lib/core/examples";
import type { SenderLimits } from "./limits";
import { sampleSender } from "./samples";
import { toPublicSender } from "./serializers";

const addedRow = {
  ...sampleSender,
  id: "cmwtr9f3c0031ug7dsender002",
  phoneNumber: "+15550009876",
  phoneNumberId: "934567890100002",
  isDefault: false,
  createdAt: exampleTime(3600),
  updatedAt: exampleTime(3600),
};
/** The account has reached 37 contacts outside a window today; the first of them leaves the 24 hours in 5 hours. */
const limits: SenderLimits = {
  throughputPerSecond: 80,
  messagingLimit: { tier: 10_000, usedLast24h: 37, resetsAt: exampleTime(5 * 3600) },
};
const added = toPublicSender(addedRow, limits);

export const getSenders = {
  message: "Senders retrieved",
  response: listExample("senders", [toPublicSender(sampleSender, limits), added], null),
};

export const postSenders = {
  request: { sender: { phoneNumber: addedRow.phoneNumber, makeDefault: false } },
  message: "Sender connected",
  response: added,
};

export const postSendersBySenderIdDefault = {
  params: { senderId: addedRow.phoneNumber },
  message: "Default sender set",
  response: toPublicSender({ ...addedRow, isDefault: true }, limits),
};

export const postSendersBySenderIdRename = {
  params: { senderId: addedRow.phoneNumber },
  request: { sender: { displayName: "Support line" } },
  message: "Sender renamed",
  response: toPublicSender({ ...addedRow, displayName: "Support line" }, limits),
};

export const postSendersBySenderIdRemove = {
  params: { senderId: addedRow.phoneNumber },
  message: "Sender removed",
  response: {
    outcome: "deactivated" as const,
    sender: toPublicSender({ ...addedRow, connectionStatus: "DISCONNECTED", deactivatedAt: exampleTime(7200) }, limits),
  },
};

/** GET /{phoneNumberId}: the sample sender as the provider describes a phone number. */

// The OpenAPI examples of the broadcast routes (docs/openapi.md "Adding a route"): one sample
// broadcast and recipient through the serializers the routes answer with.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import type { BroadcastRecipient } from "@/lib/generated/prisma/client";
import { type BroadcastRow, emptyCounts, toPublicBroadcast, toPublicRecipient } from "./serializers";

const audience = { contactBookUids: ["cmwtr9e1a0021ug7dbook00001"], filters: [], phoneNumbers: [] };
const variables = { body: [{ source: "name" as const, default: "there" }], header: [] };
const template = { name: "spring_sale", language: "en" };

const row: BroadcastRow = {
  id: "bc_mwtr9dy580d00daf32ad1db4ff17",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  name: "Spring sale",
  status: "DRAFT",
  pauseReason: null,
  resumesAt: null,
  templateName: template.name,
  templateLanguage: template.language,
  audience,
  variables,
  scheduledAt: null,
  maxPerSecond: null,
  estimate: null,
  lockedUntil: null,
  startCursor: null,
  startedAt: null,
  completedAt: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
  sender: sampleSender,
};
const extras = { counts: emptyCounts(), cost: 0, category: "MARKETING" };
const draft = toPublicBroadcast(row, extras);
const estimate = { recipients: 2, skipped: 1, cost: 0.05, currency: "USD", durationSeconds: 1 };
const sending = toPublicBroadcast(
  { ...row, status: "SENDING", estimate, startedAt: exampleTime(5), updatedAt: exampleTime(5) },
  { ...extras, counts: { ...emptyCounts(), total: 3, skipped: 1, queued: 1, accepted: 1 } },
);
const params = { broadcastUid: row.id };

export const getBroadcasts = { message: "Broadcasts retrieved", response: listExample("broadcasts", [draft]) };

export const postBroadcasts = {
  request: { broadcast: { name: "Spring sale", template, audience, variables } },
  message: "Broadcast created",
  response: draft,
};

export const getBroadcastsByBroadcastUid = { params, message: "Broadcast retrieved", response: sending };

export const postBroadcastsByBroadcastUid = {
  params,
  request: { broadcast: { name: "Spring sale (EU)" } },
  message: "Broadcast updated",
  response: toPublicBroadcast({ ...row, name: "Spring sale (EU)", updatedAt: exampleTime(1) }, extras),
};

export const postBroadcastsByBroadcastUidPreview = {
  params,
  request: {},
  message: "Broadcast preview",
  response: {
    estimate,
    skippedByReason: { blacklisted: 1, invalid_number: 0, missing_variable: 0 },
    samples: [
      { phoneNumber: "+15550100002", text: "Hi Ada, our spring sale starts today." },
      { phoneNumber: "+15550100003", text: "Hi there, our spring sale starts today." },
    ],
  },
};

export const postBroadcastsByBroadcastUidStart = {
  params,
  request: {},
  message: "Broadcast started",
  response: sending,
};

export const postBroadcastsByBroadcastUidPause = {
  params,
  request: {},
  message: "Broadcast paused",
  response: { ...sending, status: "PAUSED" as const },
};

export const postBroadcastsByBroadcastUidResume = {
  params,
  request: {},
  message: "Broadcast resumed",
  response: sending,
};

export const postBroadcastsByBroadcastUidRetryFailed = {
  params,
  request: {},
  message: "1 failed recipient queued again",
  response: {
    ...sending,
    counts: { ...sending.counts, queued: 2, accepted: 1 },
    retry: { requeued: 1, waiting: 0, retryableAt: null },
  },
};

export const postBroadcastsByBroadcastUidCancel = {
  params,
  request: {},
  message: "Broadcast cancelled",
  response: { ...sending, status: "CANCELLED" as const, counts: { ...sending.counts, queued: 0, skipped: 2 } },
};

const recipient: BroadcastRecipient = {
  id: 1n,
  broadcastId: row.id,
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  phoneNumber: "+15550100002",
  contactId: null,
  parameters: { body: ["Ada"], header: [] },
  status: "delivered",
  skipReason: null,
  errorCode: null,
  errorMessage: null,
  messageId: "msg_0f3c2a9d8b7e4c1a9f0e2d3c",
  providerMessageId: "wamid.example.1",
  attempts: 1,
  notBefore: exampleTime(),
  lockedUntil: null,
  sendingAt: exampleTime(6),
  failedAt: null,
  deliveredAt: exampleTime(8),
  replied: false,
  createdAt: exampleTime(5),
  updatedAt: exampleTime(8),
};

export const getBroadcastsByBroadcastUidRecipients = {
  params,
  message: "Broadcast recipients retrieved",
  response: listExample("recipients", [toPublicRecipient(recipient)]),
};

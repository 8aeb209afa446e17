// The OpenAPI examples of the conversation routes (docs/openapi.md "Adding a route"): one
// sample conversation and one thread entry through the serializers the routes answer with.
// The reply is a send: its example is messaging's.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import {
  type ConversationRow,
  type ThreadRow,
  toPublicConversation,
  toPublicNote,
  toPublicThreadMessage,
} from "./serializers";

const DAY = 24 * 3600;
const SAMPLE_SHA256 = "9b74c9897bac770ffc029102a200c5de5f9b1c4b1d6d8a3c6c1f4e0a7b2d3e4f";
/** A conversation with one inbound text; the reply's example (messaging) answers it. */
export const sampleConversation: ConversationRow = {
  id: "conv_55fef5a63b9d9beba6aa7cf7",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  contactPhoneNumber: "+18246194658",
  contactName: "Contact 4658",
  status: "OPEN",
  unreadCount: 1,
  lastMessageAt: exampleTime(),
  lastInboundAt: exampleTime(),
  windowExpiresAt: exampleTime(DAY),
  handoffAt: null,
  lastMessagePreview: "Hi there",
  closedAt: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
  senderPhoneNumber: sampleSender.phoneNumber,
  phoneNumberId: sampleSender.phoneNumberId,
  blacklisted: false,
  assigneeId: "cm3member0agent01",
  assigneeEmail: "ada@example.com",
  assigneeName: "Ada Lovelace",
  firstResponseSeconds: null,
  resolutionSeconds: null,
  slaPolicyId: "sla_mwtr9dy580d00daf32ad1db4ff19",
  slaFirstResponseDueAt: exampleTime(15 * 60),
  slaNextResponseDueAt: null,
  slaResolutionDueAt: exampleTime(8 * 3600),
  slaBreaches: [],
  labels: ["refund", "VIP"],
};
// As at a minute later: the customer service window is open.
const conversation = (row: ConversationRow) => toPublicConversation(row, exampleTime(60).getTime());
const params = { conversationUid: sampleConversation.id };

const inbound: ThreadRow = {
  id: "cmsg_01a20a3ad725000022a52790df1cf",
  conversationId: sampleConversation.id,
  direction: "inbound",
  type: "text",
  content: { text: { body: "Hi there" } },
  providerMessageId: "wamid.Q7MTJmjhYW9eqGhNrx9JDkkGPFwoD7h4",
  messageId: null,
  sentBy: "contact",
  sentByLabel: sampleConversation.contactName,
  replyTo: null,
  // The agent reacted to it (docs/messaging.md "Reactions").
  reactions: [{ by: "business", emoji: "👍", at: exampleTime(40).toISOString() }],
  createdAt: exampleTime(),
  outPayload: null,
  outStatus: null,
  outProviderMessageId: null,
  outErrorCode: null,
  outErrorMessage: null,
  mediaId: null,
  mediaKind: null,
  mediaMimeType: null,
  mediaSha256: null,
  mediaFileSize: null,
  mediaFilename: null,
  mediaStatus: null,
  mediaUnavailableReason: null,
};

/** A photo the contact sent, fetched from the provider and kept (docs/media.md "Inbound media"). */
const inboundPhoto: ThreadRow = {
  ...inbound,
  reactions: null,
  id: "cmsg_01a20a3ad725000022a52790df1d0",
  type: "image",
  content: { image: { id: "1043251337894512", mime_type: "image/jpeg", sha256: SAMPLE_SHA256, caption: "The box" } },
  providerMessageId: "wamid.Q7MTJmjhYW9eqGhNrx9JDkkGPFwoD7h5",
  createdAt: exampleTime(30),
  mediaId: "med_5f1c0e9a2b7d4c3e8f6a1b2c3d4e5f60",
  mediaKind: "image",
  mediaMimeType: "image/jpeg",
  mediaSha256: SAMPLE_SHA256,
  mediaFileSize: 48213,
  mediaFilename: null,
  mediaStatus: "ready",
  mediaUnavailableReason: null,
};

export const getConversations = {
  message: "Conversations retrieved",
  response: {
    scope: "user" as const,
    senderId: null,
    ...listExample("conversations", [conversation(sampleConversation)]),
  },
};

export const getConversationsByConversationUid = {
  params,
  message: "Conversation retrieved",
  response: conversation(sampleConversation),
};

export const postConversationsByConversationUid = {
  params,
  request: { conversation: { markRead: true as const, assignee: "ada@example.com" } },
  message: "Conversation updated",
  response: conversation({ ...sampleConversation, unreadCount: 0, updatedAt: exampleTime(30) }),
};

export const getConversationsByConversationUidMessages = {
  params,
  message: "Conversation messages retrieved",
  response: {
    conversationUid: sampleConversation.id,
    ...listExample("messages", [toPublicThreadMessage(inboundPhoto), toPublicThreadMessage(inbound)]),
  },
};

const note = toPublicNote({
  id: "note_6a1f0c2b9e7d4a3c8b5e0f1d",
  text: "Asked for the invoice of order 1042; sent by email, waiting for their answer.",
  authorType: "member",
  authorEmail: "ada@example.com",
  authorTokenName: null,
  createdAt: exampleTime(120),
});

export const getConversationsByConversationUidNotes = {
  params,
  message: "Conversation notes retrieved",
  response: { conversationUid: sampleConversation.id, ...listExample("notes", [note]) },
};

export const postConversationsByConversationUidNotes = {
  params,
  request: { note: { text: note.text } },
  message: "Note added",
  response: note,
};

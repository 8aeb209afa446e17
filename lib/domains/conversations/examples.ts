// The OpenAPI examples of the conversation routes (docs/openapi.md "Adding a route"): one
// sample conversation and one thread entry through the serializers the routes answer with;
// the reply's receipt is the sample message's (messaging).
import { exampleTime, listExample } from "@/lib/core/examples";
import { sampleMessage, sampleReceipt } from "@/lib/domains/messaging/examples";
import { SAMPLE_CUSTOMER_ID, sampleSender } from "@/lib/domains/senders/samples";
import { type ConversationRow, type ThreadRow, toPublicConversation, toPublicThreadMessage } from "./serializers";

const DAY = 24 * 3600;
const conversationRow: ConversationRow = {
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
  lastMessagePreview: "Hi there",
  closedAt: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
  senderPhoneNumber: sampleSender.phoneNumber,
  phoneNumberId: sampleSender.phoneNumberId,
  blacklisted: false,
};
// As at a minute later: the customer service window is open.
const conversation = (row: ConversationRow) => toPublicConversation(row, exampleTime(60).getTime());
const params = { conversationUid: conversationRow.id };

const inbound: ThreadRow = {
  id: "cmsg_01a20a3ad725000022a52790df1cf",
  conversationId: conversationRow.id,
  direction: "inbound",
  type: "text",
  content: { text: { body: "Hi there" } },
  providerMessageId: "wamid.Q7MTJmjhYW9eqGhNrx9JDkkGPFwoD7h4",
  messageId: null,
  sentBy: "contact",
  sentByLabel: conversationRow.contactName,
  createdAt: exampleTime(),
  outPayload: null,
  outStatus: null,
  outProviderMessageId: null,
  outErrorCode: null,
  outErrorMessage: null,
  deliveryStatus: null,
  deliveryErrorCode: null,
  deliveryErrorTitle: null,
};
const reply = { type: "text", text: { body: "Hello back" } } as const;

export const getConversations = {
  message: "Conversations retrieved",
  response: {
    scope: "user" as const,
    senderId: null,
    ...listExample("conversations", [conversation(conversationRow)]),
  },
};

export const getConversationsByConversationUid = {
  params,
  message: "Conversation retrieved",
  response: conversation(conversationRow),
};

export const postConversationsByConversationUid = {
  params,
  request: { conversation: { markRead: true as const } },
  message: "Conversation updated",
  response: conversation({ ...conversationRow, unreadCount: 0, updatedAt: exampleTime(30) }),
};

export const getConversationsByConversationUidMessages = {
  params,
  message: "Conversation messages retrieved",
  response: { conversationUid: conversationRow.id, ...listExample("messages", [toPublicThreadMessage(inbound)]) },
};

export const postConversationsByConversationUidMessages = {
  params,
  request: { message: reply },
  ...sampleReceipt({
    message: {
      ...sampleMessage,
      recipient: conversationRow.contactPhoneNumber,
      type: reply.type,
      templateName: null,
      templateLanguage: null,
      pricingCategory: "service",
      sendRoute: "chat",
      createdAt: exampleTime(30),
      updatedAt: exampleTime(30),
    },
    queued: false,
    template: null,
  }),
};

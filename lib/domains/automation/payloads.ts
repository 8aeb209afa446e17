// What the automation jobs carry (enqueue.ts and labels.ts write them, runner.ts reads them).
import type { TriggerEvent } from "./schemas";

/** One inbound message of a staged batch (enqueue.ts `stageInbound`); `at` as ISO text. */
export type StagedInbound = {
  customerId: string;
  senderId: string;
  conversationId: string;
  providerMessageId: string;
  text: string;
  type: string;
  at: string;
  /**
   * When its conversation was locked to store it (conversations/inbound.ts InboundApplied.
   * decidedAt): the first moment a person could see it, so only a person's reply after then
   * answers it. `at`, the provider's whole second for a message processed a second or more late,
   * can fall before a send it followed. Absent from batches staged before it was: `at` stands in.
   */
  seenAt?: string;
  /** This message started the conversation. */
  created: boolean;
};

/** What an inbound job carries: one account's new messages of one callback batch. */
export type InboundPayload = { items: StagedInbound[] };

/** What an event job carries (enqueue.ts writes it). */
export type EventPayload = {
  trigger: TriggerEvent;
  conversationId: string;
  /** The event's own key part: the inbound message id, the conversation, a label change's id. */
  eventKey: string;
  message?: { text: string; type: string } | null;
  at: string;
  /** 1 for a labels change a rule made: rules it triggers do not trigger again (no loops). */
  depth?: number;
};

/** What a time job carries. */
export type TimePayload = {
  trigger: "conversation.idle" | "conversation.unanswered";
  ruleId: string;
  conversationId: string;
  /** The inbound message the unanswered timer waits on; the idle timer's last activity. */
  anchorMessageId: string;
  anchorAt: string;
  /** The unanswered timer: a person's reply from then on answers the message (StagedInbound.seenAt); absent, anchorAt. */
  answeredFrom?: string;
  message?: { text: string; type: string } | null;
};

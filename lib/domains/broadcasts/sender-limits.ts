// The limits a broadcast paces itself by (docs/broadcasts.md "The limits"): the sender's
// throughput and its business account's messaging-limit tier. Read here only, so the columns
// the operator sets (throughputPerSecond, messagingLimit) are the one place they come from.
import type { Sender } from "@/lib/generated/prisma/client";

/** The provider's default per-number throughput (messages per second). */
export const DEFAULT_THROUGHPUT = 80;
/** The default tier of unique contacts outside an open window per rolling 24 hours. */
export const DEFAULT_MESSAGING_LIMIT = 10_000;

export type SenderLimits = {
  throughputPerSecond: number;
  /** null: unlimited. */
  messagingLimit: number | null;
  /** The business account the messaging limit is counted for: its wabaId, else the sender. */
  accountKey: string;
};

type WithLimits = Pick<Sender, "id" | "wabaId"> & {
  throughputPerSecond?: number | null;
  messagingLimit?: number | null;
};

export function senderLimits(sender: WithLimits): SenderLimits {
  const tier = sender.messagingLimit === undefined ? DEFAULT_MESSAGING_LIMIT : sender.messagingLimit;
  return {
    throughputPerSecond: sender.throughputPerSecond ?? DEFAULT_THROUGHPUT,
    messagingLimit: tier === null || tier < 0 ? null : tier,
    accountKey: sender.wabaId ? `waba:${sender.wabaId}` : `sender:${sender.id}`,
  };
}

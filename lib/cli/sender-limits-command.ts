// sender:limits (docs/operator-cli.md "Credit and sender limits"): shows or sets a sender's
// throughput and its business account's messaging limit (lib/domains/senders/limits.ts).
import { setSenderLimits } from "@/lib/domains/senders/limits";
import { defineCommand } from "./command";
import { CliInputError } from "./input-error";
import { SenderLimitsArgs } from "./schemas";

export const senderLimitsCommand = defineCommand({
  options: { sender: { type: "string" }, throughput: { type: "string" }, "messaging-limit": { type: "string" } },
  schema: SenderLimitsArgs,
  run: async (input) => {
    const result = await setSenderLimits({
      phoneNumber: input.sender,
      throughputPerSecond: input.throughput,
      messagingLimit: input.messagingLimit,
    });
    if (!result) throw new CliInputError("--sender", `no sender with phone number ${input.sender}`);
    const { sender, limits } = result;
    const tier = limits.messagingLimit.tier;
    const resetsAt = limits.messagingLimit.resetsAt?.toISOString() ?? null;
    return {
      json: {
        senderId: sender.id,
        customerId: sender.customerId,
        phoneNumber: sender.phoneNumber,
        wabaId: sender.wabaId,
        throughputPerSecond: limits.throughputPerSecond,
        messagingLimit: { tier, usedLast24h: limits.messagingLimit.usedLast24h, resetsAt },
        accountSenders: result.accountPhoneNumbers,
      },
      text: [
        `Sender ${sender.phoneNumber} (${sender.customerId}): ${limits.throughputPerSecond} messages/s`,
        `messaging limit ${tier === null ? "unlimited" : tier} unique contacts per 24 h, ${limits.messagingLimit.usedLast24h} used${resetsAt ? ` (next frees at ${resetsAt})` : ""}`,
        `shared by ${result.accountPhoneNumbers.join(", ")}`,
      ].join("; "),
    };
  },
});

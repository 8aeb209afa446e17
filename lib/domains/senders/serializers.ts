// A sender as the public API shows it (PublicSender in ./schemas.ts), with its limits
// (./limits.ts: senderLimits or limitsOfSenders).
import type { Sender } from "@/lib/generated/prisma/client";
import type { SenderLimits } from "./limits";
import type { PublicSenderShape } from "./schemas";

export function toPublicSender(sender: Sender, limits: SenderLimits): PublicSenderShape {
  return {
    phoneNumber: sender.phoneNumber,
    phoneNumberId: sender.phoneNumberId,
    displayName: sender.displayName,
    isDefault: sender.isDefault,
    status: sender.connectionStatus,
    deactivatedAt: sender.deactivatedAt?.toISOString() ?? null,
    throughputPerSecond: limits.throughputPerSecond,
    messagingLimit: {
      tier: limits.messagingLimit.tier,
      usedLast24h: limits.messagingLimit.usedLast24h,
      resetsAt: limits.messagingLimit.resetsAt?.toISOString() ?? null,
    },
    createdAt: sender.createdAt.toISOString(),
  };
}

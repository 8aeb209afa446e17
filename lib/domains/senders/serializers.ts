// A sender as the public API shows it (PublicSender in ./schemas.ts), with its limits
// (./limits.ts: senderLimits or limitsOfSenders).

import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { z } from "zod";
import type { Sender } from "@/lib/generated/prisma/client";
import type { SenderLimits } from "./limits";
import type { ProviderPhoneNumber, PublicSenderShape } from "./schemas";

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

const TIER_NAMES: Record<number, string> = { 250: "TIER_250", 2000: "TIER_2K", 10000: "TIER_10K", 100000: "TIER_100K" };

/** A sender as the provider's GET /{phoneNumberId} answers it. */
export function toProviderPhoneNumber(sender: Sender): z.infer<typeof ProviderPhoneNumber> {
  const display = parsePhoneNumberFromString(sender.phoneNumber)?.formatInternational() ?? sender.phoneNumber;
  return {
    id: sender.phoneNumberId ?? "",
    display_phone_number: display,
    verified_name: sender.displayName ?? display,
    quality_rating: "GREEN",
    code_verification_status: "VERIFIED",
    platform_type: "CLOUD_API",
    throughput: { level: sender.throughputPerSecond >= 1000 ? "HIGH" : "STANDARD" },
    messaging_limit_tier:
      sender.messagingLimit === null
        ? "TIER_UNLIMITED"
        : (TIER_NAMES[sender.messagingLimit] ?? `TIER_${sender.messagingLimit}`),
  };
}

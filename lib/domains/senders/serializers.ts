// A sender as the public API shows it (PublicSender in ./schemas.ts).
import type { Sender } from "@/lib/generated/prisma/client";
import type { PublicSenderShape } from "./schemas";

export function toPublicSender(sender: Sender): PublicSenderShape {
  return {
    phoneNumber: sender.phoneNumber,
    phoneNumberId: sender.phoneNumberId,
    displayName: sender.displayName,
    isDefault: sender.isDefault,
    status: sender.connectionStatus,
    deactivatedAt: sender.deactivatedAt?.toISOString() ?? null,
    createdAt: sender.createdAt.toISOString(),
  };
}

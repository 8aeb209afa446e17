// The inputs and public shapes of senders (docs/messaging.md "Senders"): one schema per input, used by
// the API routes (lib/api/routes/senders.ts), the dashboard's add-sender action and the
// OpenAPI document (docs/messaging.md "Senders").
import { z } from "zod";
import { isoTimestamp } from "@/lib/core/timestamp-schema";

/**
 * A sender to connect. The number is parsed by the one phone parser (lib/domains/senders/phone.ts)
 * with the country picked in the form, if any; the provider checks are connectSender's
 * (lib/domains/onboarding/connect-sender.ts).
 */
export const SenderConnectFields = z.object({
  phoneNumber: z.string().trim().min(1, "Enter the phone number, with + and the country code").max(40),
  country: z.string().trim().max(2).optional().describe("The country of a number typed without + (like US)"),
  phoneNumberId: z.string().trim().max(64).optional(),
  makeDefault: z.boolean().optional(),
});

export const SenderCreateBody = z.object({ sender: SenderConnectFields });

export const SenderConnectionStatus = z.enum(["CONNECTED", "RECONNECTING", "DISCONNECTED"]);

/** The messaging limit of the sender's business account (docs/messaging.md "Sender limits"). */
export const SenderMessagingLimit = z
  .object({
    tier: z
      .number()
      .int()
      .nullable()
      .describe("Unique contacts per rolling 24 hours (250, 2000, 10000, 100000); null = unlimited"),
    usedLast24h: z
      .number()
      .int()
      .describe(
        "Unique contacts reached outside an open customer service window in the last 24 hours, by every sender of the business account",
      ),
    resetsAt: isoTimestamp()
      .nullable()
      .describe("When the oldest counted contact leaves the 24 hours; null when none counts"),
  })
  .describe("Shared by the senders of one business account (wabaId)");

export const PublicSender = z
  .object({
    phoneNumber: z.string().describe("E.164; the senderId of sender-scoped routes"),
    phoneNumberId: z.string().nullable().describe("Provider phone number id; null = setup incomplete"),
    displayName: z.string().nullable(),
    isDefault: z.boolean(),
    status: SenderConnectionStatus,
    deactivatedAt: isoTimestamp()
      .nullable()
      .describe("When the sender was removed (it had history, so it was kept, deactivated); null: active"),
    throughputPerSecond: z
      .number()
      .int()
      .describe("The number's messages per second at the provider (80 by default, up to 1,000); broadcasts pace by it"),
    messagingLimit: SenderMessagingLimit,
    createdAt: isoTimestamp(),
  })
  .meta({ id: "Sender" });
export type PublicSenderShape = z.infer<typeof PublicSender>;

export const SenderListData = z.object({ senders: z.array(PublicSender), items: z.array(PublicSender) });

/** POST /senders/{senderId}/rename: rename (the display name; empty or null: none). */
export const SenderRenameFields = z.object({
  displayName: z.string().trim().max(120, "Keep the name under 120 characters").nullable(),
});
export const SenderRenameBody = z.object({ sender: SenderRenameFields });

export const SenderRemovedData = z.object({
  outcome: z
    .enum(["deleted", "deactivated"])
    .describe("deleted: it had no history; deactivated: kept with its conversations and records, sends no more"),
  sender: PublicSender,
});

/**
 * GET /{phoneNumberId}: the phone number as the provider's Graph API describes it, for stock
 * provider SDKs (docs/messaging.md "Provider SDKs").
 */
export const ProviderPhoneNumber = z
  .object({
    id: z.string().describe("The phone number id"),
    display_phone_number: z.string().describe("The number, as the provider shows it (+1 555-010-0001)"),
    verified_name: z.string().describe("The display name, else the number"),
    quality_rating: z.enum(["GREEN", "YELLOW", "RED", "UNKNOWN"]),
    code_verification_status: z.literal("VERIFIED"),
    platform_type: z.literal("CLOUD_API"),
    throughput: z.object({ level: z.enum(["STANDARD", "HIGH"]) }).describe("HIGH from 1,000 messages per second"),
    messaging_limit_tier: z.string().describe("TIER_250, TIER_2K, TIER_10K, TIER_100K or TIER_UNLIMITED"),
  })
  .meta({ id: "ProviderPhoneNumber" });

/**
 * A per-sender dashboard page's `?sender=`: the sender's phone number; blank or absent, the
 * default sender (lib/domains/senders/dashboard-scope.ts pageSender).
 */
export const PageSenderQuery = z.object({
  sender: z
    .string()
    .optional()
    .transform((v) => v || undefined),
});

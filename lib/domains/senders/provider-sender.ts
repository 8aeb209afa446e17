// The sender as the provider knows it (lib/domains/provider/types.ts): what the send
// pipeline's dispatch and the template calls hand the provider.
import type { ProviderSender } from "@/lib/domains/provider/types";
import type { Sender } from "./service";

export function providerSender(sender: Sender): ProviderSender {
  return {
    phoneNumberId: sender.phoneNumberId ?? "",
    phoneNumber: sender.phoneNumber,
    wabaId: sender.wabaId,
    throughputPerSecond: sender.throughputPerSecond,
    messagingLimit: sender.messagingLimit,
  };
}

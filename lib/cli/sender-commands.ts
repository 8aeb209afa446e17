// sender:add and sender:default (docs/operator-cli.md).
import { operatorPrincipal } from "@/lib/domains/auth/principal";
import { providerMode } from "@/lib/domains/provider/client";
import { addSender, setDefaultSender } from "@/lib/domains/senders/admin";
import { syncAccountTemplates } from "@/lib/domains/templates/service";
import { defineCommand } from "./command";
import { requireCustomer } from "./require-customer";
import { SenderAddArgs, SenderDefaultArgs } from "./schemas";

export const senderAdd = defineCommand({
  options: {
    customer: { type: "string" },
    phone: { type: "string" },
    "phone-number-id": { type: "string" },
    "waba-id": { type: "string" },
    "display-name": { type: "string" },
    default: { type: "boolean" },
  },
  schema: SenderAddArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const sender = await addSender(
      {
        customerId: input.customer,
        phoneNumber: input.phone,
        phoneNumberId: input.phoneNumberId,
        wabaId: input.wabaId,
        displayName: input.displayName,
        isDefault: input.default,
      },
      operatorPrincipal(input.customer),
    );
    // The simulated business account's templates at once, as a dashboard connect does: the
    // approved sample hello_world can be sent from the start (docs/messaging.md "Senders").
    if (providerMode() === "simulator" && sender.wabaId && sender.phoneNumberId) {
      await syncAccountTemplates(sender.customerId, sender);
    }
    const setup = sender.phoneNumberId ? "" : " (setup incomplete: no provider phone number id)";
    return {
      json: {
        senderId: sender.id,
        customerId: sender.customerId,
        phoneNumber: sender.phoneNumber,
        phoneNumberId: sender.phoneNumberId,
        isDefault: sender.isDefault,
        setupComplete: sender.phoneNumberId !== null,
      },
      text: `Added sender ${sender.phoneNumber}${sender.isDefault ? " (default)" : ""}${setup}: ${sender.id}`,
    };
  },
});

export const senderDefault = defineCommand({
  options: { customer: { type: "string" }, phone: { type: "string" } },
  schema: SenderDefaultArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const sender = await setDefaultSender(input.customer, input.phone, operatorPrincipal(input.customer));
    return {
      json: { senderId: sender.id, customerId: sender.customerId, phoneNumber: sender.phoneNumber, isDefault: true },
      text: `Default sender of ${sender.customerId}: ${sender.phoneNumber} (${sender.id})`,
    };
  },
});

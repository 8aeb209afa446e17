// A customer connects its own sender from the dashboard or the API (docs/messaging.md "Senders"), through the same
// addSender as the operator's sender:add. In simulator mode any international number (lib/domains/senders/phone.ts) gets a
// simulated phone number id at once; with a real provider the phone number id is required
// and must be the provider's id of that very number (checked through the provider client).
// A simulated number belongs to the customer's simulated business account (one per
// customer, as the provider's WABA), whose templates are synced at once: the provider's
// approved sample `hello_world` lets a new account send a first message, and templates it
// creates get the provider's review verdict through the signed template status callback.
import { randomInt } from "node:crypto";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { getProvider, providerMode } from "@/lib/domains/provider/client";
import { addSender, SenderInputError, setDefaultSender } from "@/lib/domains/senders/admin";
import { parsePhone } from "@/lib/domains/senders/phone";
import { syncTemplates } from "@/lib/domains/templates/service";
import type { Sender } from "@/lib/generated/prisma/client";

export type ConnectSenderInput = {
  phoneNumber: string;
  /** The country picked in the form for a number typed without "+". */
  country?: string;
  phoneNumberId?: string;
  makeDefault?: boolean;
};

const PHONE_NUMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A simulated phone number id: 15 digits, as the provider's look. */
const simulatedPhoneNumberId = () =>
  `9${String(randomInt(0, 1e9)).padStart(9, "0")}${String(randomInt(0, 1e5)).padStart(5, "0")}`;

/** The customer's simulated business account: the one its senders already have, else a new one. */
async function simulatedWabaId(customerId: string): Promise<string> {
  const existing = await db.sender.findFirst({
    where: { customerId, wabaId: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { wabaId: true },
  });
  return existing?.wabaId ?? `8${simulatedPhoneNumberId().slice(1)}`;
}

export async function connectSender(p: Principal, input: ConnectSenderInput): Promise<Sender> {
  const parsed = parsePhone(input.phoneNumber, { country: input.country });
  if (!parsed.ok) throw new SenderInputError("phone", parsed.message);
  const phoneNumber = parsed.e164;
  const phoneNumberId = input.phoneNumberId?.trim() || undefined;
  if (phoneNumberId !== undefined && !PHONE_NUMBER_ID.test(phoneNumberId)) {
    throw new SenderInputError("phoneNumberId", "must be the provider's phone number id (letters, digits)");
  }
  if (providerMode() === "simulator") return connectSimulated(p, phoneNumber, phoneNumberId, input.makeDefault);
  if (!phoneNumberId) throw new SenderInputError("phoneNumberId", "is required: the provider's id of this number");
  const known = await getProvider().phoneNumberOf(phoneNumberId);
  if (known === null) throw new SenderInputError("phoneNumberId", "is not known to the provider for our access token");
  if (known !== phoneNumber.slice(1)) {
    throw new SenderInputError("phoneNumberId", `belongs to another number at the provider (+${known})`);
  }
  return addSender({ customerId: p.customerId, phoneNumber, phoneNumberId, isDefault: input.makeDefault }, p);
}

/** Simulator mode: a simulated id on the customer's simulated business account, its templates synced. */
async function connectSimulated(
  p: Principal,
  phoneNumber: string,
  phoneNumberId: string | undefined,
  makeDefault: boolean | undefined,
): Promise<Sender> {
  const sender = await addSender(
    {
      customerId: p.customerId,
      phoneNumber,
      phoneNumberId: phoneNumberId ?? simulatedPhoneNumberId(),
      wabaId: await simulatedWabaId(p.customerId),
      isDefault: makeDefault,
    },
    p,
  );
  await syncTemplates(p, sender);
  return sender;
}

/** Makes one of the principal's senders (by phone number) the default. */
export function makeDefaultSender(p: Principal, phoneNumber: string): Promise<Sender> {
  return setDefaultSender(p.customerId, phoneNumber, p);
}

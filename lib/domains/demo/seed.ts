// `demo:seed`: an idempotent demo account. Everything is looked up by a stable natural key
// (customer name, sender phone numbers, token names, user email, book names, webhook names,
// rate categories, message ids) and created only when missing, so running it twice gives
// the same rows. Token values exist only when the token is created: they are returned then.

import { encryptSecret } from "@/lib/core/crypto/secret-box";
import { db } from "@/lib/db";
import { PRICING_CATEGORIES } from "@/lib/domains/billing/rate-card";
import { addSender } from "@/lib/domains/senders/admin";
import { issueToken } from "@/lib/domains/tokens/service";
import { createUser } from "@/lib/domains/users/service";
import { generateSigningSecret } from "@/lib/domains/webhooks/service";
import type { Customer, Sender } from "@/lib/generated/prisma/client";
import { DEMO_CUSTOMER_NAME, DEMO_EMAIL, DEMO_PASSWORD } from "./constants";
import { ensureAutomations } from "./seed-automations";
import { insertBillingRecords, insertLedger } from "./seed-billing";
import { seedBroadcasts } from "./seed-broadcasts";
import { ensureChatbot } from "./seed-chatbots";
import { seedContacts } from "./seed-contacts";
import { seedConversations } from "./seed-conversations";
import { ensureLabels } from "./seed-labels";
import { ensureSegments } from "./seed-segments";
import { seedSupportHistory } from "./seed-support";
import { ensureTemplates } from "./seed-templates";

export const DEMO_BILLING_RECORDS = 50_000;

/** Realistic per-message USD rates (roughly the provider's US list prices). */
export const DEMO_RATES: Record<(typeof PRICING_CATEGORIES)[number], number> = {
  marketing: 0.025,
  marketing_lite: 0.0185,
  utility: 0.004,
  authentication: 0.0035,
  authentication_international: 0.028,
  service: 0,
  referral_conversion: 0,
};

export const DEMO_SENDERS = [
  {
    phoneNumber: "+15550100001",
    phoneNumberId: "109990000000001",
    wabaId: "209990000000001",
    displayName: "Acme Support",
    isDefault: true,
    weight: 0.6,
  },
  {
    phoneNumber: "+15550100002",
    phoneNumberId: "109990000000002",
    wabaId: "209990000000001",
    displayName: "Acme Marketing",
    isDefault: false,
    weight: 0.4,
  },
  {
    phoneNumber: "+15550100003",
    phoneNumberId: null,
    wabaId: null,
    displayName: "Acme EU (setup pending)",
    isDefault: false,
    weight: 0,
  },
] as const;

export const DEMO_TOKEN_NAMES = { global: "Demo global token", scoped: "Demo number-scoped token" } as const;

const DEMO_WEBHOOKS = [
  {
    name: "Delivery receipts",
    endpointUrl: "https://example.com/webhooks/switchboard/status",
    events: ["message.status.sent", "message.status.delivered", "message.status.read", "message.status.failed"],
  },
  {
    name: "Inbound messages",
    endpointUrl: "https://example.com/webhooks/switchboard/inbound",
    events: ["message.inbound.text", "message.inbound.interactive", "message.inbound.button", "template.status_update"],
  },
] as const;

export type SeedDemoResult = {
  customerId: string;
  /** True when this run created the demo customer. */
  created: boolean;
  senderIds: string[];
  /** Plain token values, only for tokens created by this run. */
  tokens: { global?: { id: string; token: string }; scoped?: { id: string; token: string; senderPhoneNumber: string } };
  user: { email: string; password: string; created: boolean };
  billingRecordsInserted: number;
};

async function ensureCustomer(): Promise<{ customer: Customer; created: boolean }> {
  const found = await db.customer.findFirst({ where: { name: DEMO_CUSTOMER_NAME }, orderBy: { createdAt: "asc" } });
  if (found) return { customer: found, created: false };
  return { customer: await db.customer.create({ data: { name: DEMO_CUSTOMER_NAME, plan: "pro" } }), created: true };
}

async function ensureSenders(customerId: string): Promise<Sender[]> {
  const senders: Sender[] = [];
  for (const spec of DEMO_SENDERS) {
    const existing = await db.sender.findUnique({ where: { phoneNumber: spec.phoneNumber } });
    if (existing && existing.customerId !== customerId) {
      throw new Error(`Demo sender ${spec.phoneNumber} already belongs to another customer`);
    }
    senders.push(
      existing ??
        (await addSender({
          customerId,
          phoneNumber: spec.phoneNumber,
          phoneNumberId: spec.phoneNumberId,
          wabaId: spec.wabaId,
          displayName: spec.displayName,
          isDefault: spec.isDefault,
        })),
    );
  }
  return senders;
}

async function ensureToken(customerId: string, name: string, senderId: string | null) {
  const existing = await db.apiToken.findFirst({ where: { customerId, name, revokedAt: null } });
  if (existing) return undefined;
  const { token, record } = await issueToken({ customerId, name, senderId });
  return { id: record.id, token };
}

async function ensureRates(): Promise<void> {
  // Only fills missing global rates: an operator's own rates are never overwritten.
  await db.rateCard.createMany({
    data: PRICING_CATEGORIES.map((pricingCategory) => ({
      scope: "global",
      pricingCategory,
      rate: DEMO_RATES[pricingCategory],
      currency: "USD",
    })),
    skipDuplicates: true,
  });
}

async function ensureWebhooks(customerId: string, sender: Sender): Promise<void> {
  for (const spec of DEMO_WEBHOOKS) {
    const existing = await db.webhookDestination.findFirst({ where: { customerId, name: spec.name } });
    if (existing) continue;
    await db.webhookDestination.create({
      data: {
        customerId,
        senderId: sender.id,
        name: spec.name,
        endpointUrl: spec.endpointUrl,
        events: [...spec.events],
        signingSecretEnc: encryptSecret(generateSigningSecret()),
      },
    });
  }
}

export async function seedDemo(options: { billingRecords?: number; now?: Date } = {}): Promise<SeedDemoResult> {
  const now = options.now ?? new Date();
  const total = options.billingRecords ?? DEMO_BILLING_RECORDS;
  const { customer, created } = await ensureCustomer();
  const senders = await ensureSenders(customer.id);
  const [primary] = senders;
  if (!primary) throw new Error("Demo senders missing");

  const globalToken = await ensureToken(customer.id, DEMO_TOKEN_NAMES.global, null);
  const scopedToken = await ensureToken(customer.id, DEMO_TOKEN_NAMES.scoped, primary.id);

  const userExists = await db.user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  if (!userExists)
    await createUser({ customerId: customer.id, email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo Operator" });

  await ensureRates();
  await seedContacts(customer.id);
  await ensureWebhooks(customer.id, primary);
  await ensureTemplates(customer.id, primary);
  // On the second sender: the default sender's inbound stays free of automatic replies.
  await ensureChatbot(customer.id, senders[1] ?? primary);

  const weighted = DEMO_SENDERS.flatMap((spec, i) => {
    const sender = senders[i];
    return sender && spec.weight > 0 ? [{ id: sender.id, weight: spec.weight }] : [];
  });
  const billingRecordsInserted = await insertBillingRecords({ customerId: customer.id, senders: weighted, total, now });
  await insertLedger(customer.id, now);
  await seedConversations(customer.id, senders, now);
  await seedBroadcasts(customer.id, primary, now, DEMO_RATES.marketing);
  await ensureLabels(customer.id);
  // After the labels: the history's conversations carry them (and the VIP SLA policy follows the VIP label).
  await seedSupportHistory(customer.id, senders, now);
  await ensureSegments(customer.id);
  await ensureAutomations(customer.id);

  return {
    customerId: customer.id,
    created,
    senderIds: senders.map((s) => s.id),
    tokens: {
      ...(globalToken ? { global: globalToken } : {}),
      ...(scopedToken ? { scoped: { ...scopedToken, senderPhoneNumber: primary.phoneNumber } } : {}),
    },
    user: { email: DEMO_EMAIL, password: DEMO_PASSWORD, created: !userExists },
    billingRecordsInserted,
  };
}

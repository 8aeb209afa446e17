// Shared set-up for the messaging tests: a customer with credit and approved templates.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import type { Sender } from "@/lib/domains/senders/service";
import { Prisma } from "@/lib/generated/prisma/client";
import { contactWrites } from "@/test/conversation-fixtures";
import { createTestCustomer, uniquePhone } from "@/test/factory";

export async function messagingCustomer(options: { credit?: number } = {}) {
  const t = await createTestCustomer();
  if (options.credit !== 0) {
    await db.billingTransaction.create({
      data: {
        customerId: t.customer.id,
        type: "credit",
        amount: new Prisma.Decimal(options.credit ?? 100),
        description: "test credit",
      },
    });
  }
  const template = await addTemplate(t.customer.id, { name: "order_update", category: "UTILITY" });
  const marketing = await addTemplate(t.customer.id, { name: "spring_sale", category: "MARKETING" });
  return { ...t, template, marketing };
}

export function addTemplate(
  customerId: string,
  over: { name: string; category?: string; status?: string; language?: string; source?: string },
) {
  return db.template.create({
    data: {
      customerId,
      name: over.name,
      language: over.language ?? "en",
      category: over.category ?? "UTILITY",
      status: over.status ?? "APPROVED",
      source: over.source ?? "MANUAL",
      providerTemplateId: String(10n ** 14n + BigInt(randomBytes(5).readUIntBE(0, 5))),
      components: [{ type: "BODY", text: "Hello {{1}}" }],
    },
  });
}

/** The send components of the fixtures' templates (body "Hello {{1}}": one text parameter). */
export const HELLO_PARAMS = [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }];

export const recipient = () => uniquePhone();

/** A recipient who wrote to the sender just now: the customer service window is open. */
export async function engagedRecipient(sender: Sender): Promise<string> {
  const to = uniquePhone();
  await contactWrites(sender, to);
  return to;
}

// The demo's message templates, so the composer and the templates page have something
// to show: approved ones of each billed category, one still in review, one rejected.
import { db } from "@/lib/db";
import { sampleTemplate } from "@/lib/domains/provider/sample-template";
import type { Prisma, Sender } from "@/lib/generated/prisma/client";

type DemoTemplate = { name: string; category: string; status: string; source: string; body: string; reason?: string };

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    name: "order_update",
    category: "UTILITY",
    status: "APPROVED",
    source: "MANUAL",
    body: "Hi {{1}}, your order {{2}} is on its way.",
  },
  {
    name: "spring_sale",
    category: "MARKETING",
    status: "APPROVED",
    source: "MANUAL",
    body: "Spring sale: 20% off everything until Sunday, {{1}}!",
  },
  {
    name: "login_code",
    category: "AUTHENTICATION",
    status: "APPROVED",
    source: "AUTO_GENERATED",
    body: "{{1}} is your verification code.",
  },
  {
    name: "appointment_reminder",
    category: "UTILITY",
    status: "PENDING",
    source: "MANUAL",
    body: "Reminder: your appointment is on {{1}}.",
  },
  {
    name: "flash_offer",
    category: "MARKETING",
    status: "REJECTED",
    source: "MANUAL",
    body: "Buy now!!!",
    reason: "PROMOTIONAL",
  },
];

/** Creates the demo templates that are missing (by name and language). */
export async function ensureTemplates(customerId: string, sender: Sender): Promise<void> {
  for (const [i, t] of DEMO_TEMPLATES.entries()) {
    await db.template.upsert({
      where: { customerId_name_language: { customerId, name: t.name, language: "en" } },
      update: {},
      create: {
        customerId,
        wabaId: sender.wabaId,
        providerTemplateId: `${sender.wabaId ?? "demo"}${String(i + 1).padStart(3, "0")}`,
        name: t.name,
        language: "en",
        category: t.category,
        status: t.status,
        source: t.source,
        // The demo account's own templates, as if made on its Templates page.
        origin: "switchboard",
        rejectionReason: t.reason ?? null,
        components: [{ type: "BODY", text: t.body }],
      },
    });
  }
  await ensureSampleTemplate(customerId, sender);
}

/**
 * The provider's approved sample `hello_world` of the demo's business account, as a sync would
 * bring it (docs/messaging.md "Provider and simulator"): the demo can send it from the start.
 */
async function ensureSampleTemplate(customerId: string, sender: Sender): Promise<void> {
  if (!sender.wabaId) return;
  const sample = sampleTemplate(sender.wabaId);
  await db.template.upsert({
    where: { customerId_name_language: { customerId, name: sample.name, language: sample.language } },
    update: {},
    create: {
      customerId,
      wabaId: sender.wabaId,
      providerTemplateId: sample.id,
      name: sample.name,
      language: sample.language,
      category: sample.category,
      status: sample.status,
      source: "MANUAL",
      origin: "provider",
      components: sample.components as Prisma.InputJsonValue,
    },
  });
}

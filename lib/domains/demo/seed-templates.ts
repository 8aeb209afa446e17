// The demo's message templates, so the composer and the templates page have something
// to show: approved ones of each billed category, one still in review, one rejected.
import { db } from "@/lib/db";
import type { Sender } from "@/lib/generated/prisma/client";

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
        rejectionReason: t.reason ?? null,
        components: [{ type: "BODY", text: t.body }],
      },
    });
  }
}

// v3 Direct Send: a session-style text sent as a utility or authentication message through
// an auto-generated template (source AUTO_GENERATED, one per customer, business account
// and category, body "{{1}}") that the customer never has to manage.

import { db } from "@/lib/db";
import { numericId } from "@/lib/domains/provider/error-codes";
import type { Sender } from "@/lib/domains/senders/service";
import type { Template } from "@/lib/generated/prisma/client";

export const DIRECT_SEND_CATEGORIES = ["utility", "authentication"] as const;
export type DirectSendCategory = (typeof DIRECT_SEND_CATEGORIES)[number];

const directSendTemplateName = (category: DirectSendCategory) => `switchboard_direct_${category}`;
const LANGUAGE = "en";

export async function directSendTemplate(
  customerId: string,
  sender: Sender,
  category: DirectSendCategory,
): Promise<Template> {
  const name = directSendTemplateName(category);
  const found = await db.template.findFirst({ where: { customerId, name, language: LANGUAGE } });
  if (found) return found;
  await db.template.createMany({
    data: [
      {
        customerId,
        wabaId: sender.wabaId,
        providerTemplateId: numericId(),
        name,
        language: LANGUAGE,
        category: category.toUpperCase(),
        status: "APPROVED",
        source: "AUTO_GENERATED",
        components: [{ type: "BODY", text: "{{1}}" }],
      },
    ],
    skipDuplicates: true,
  });
  return db.template.findFirstOrThrow({ where: { customerId, name, language: LANGUAGE } });
}

export function directSendComponents(text: string) {
  return [{ type: "body", parameters: [{ type: "text", text }] }];
}

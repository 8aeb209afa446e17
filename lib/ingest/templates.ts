// Template updates (status, category, quality) arrive per business account (entry.id is
// the WABA id): upsert the customer's Template by provider template id and emit
// template.<kind> to the destinations of that customer's senders on that account.
import { createHash } from "node:crypto";
import type { Tx } from "@/lib/db";
import { type EventInput, emitEvents } from "@/lib/domains/events/emit";
import type { TemplateField, TemplateUpdateValueT } from "@/lib/domains/provider/callbacks/schemas";
import { TEMPLATE_EVENTS } from "@/lib/domains/templates/event-types";

export type TemplateItem = { wabaId: string; field: TemplateField; value: TemplateUpdateValueT; raw: unknown };

const EVENT_OF = {
  message_template_status_update: TEMPLATE_EVENTS.status,
  template_category_update: TEMPLATE_EVENTS.category,
  message_template_quality_update: TEMPLATE_EVENTS.quality,
} satisfies Record<TemplateField, unknown>;

const text = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/** The Template columns a change sets. */
function changes(item: TemplateItem) {
  const v = item.value as TemplateUpdateValueT & Record<string, unknown>;
  if (item.field === "message_template_status_update") {
    const info = v.rejection_info as { reason?: unknown } | undefined;
    const reason = text(v.reason);
    const rejection = [reason && reason !== "NONE" ? reason : null, text(info?.reason)].filter(Boolean).join(": ");
    return {
      status: text(v.event) ?? "PENDING",
      ...(text(v.message_template_category) ? { category: String(v.message_template_category).toLowerCase() } : {}),
      ...(text(v.event) === "REJECTED" ? { rejectionReason: rejection || null } : {}),
    };
  }
  if (item.field === "template_category_update") {
    const category = text(v.new_category) ?? text(v.message_template_category);
    return {
      ...(category ? { category: category.toLowerCase() } : {}),
      ...(text(v.correct_category) ? { correctCategory: String(v.correct_category).toLowerCase() } : {}),
    };
  }
  return { quality: text(v.new_quality_score) ?? "UNKNOWN" };
}

export async function ingestTemplates(tx: Tx, items: TemplateItem[]): Promise<{ events: number; unknown: string[] }> {
  const events: EventInput[] = [];
  const unknown: string[] = [];
  for (const item of items) {
    const senders = await tx.sender.findMany({ where: { wabaId: item.wabaId }, orderBy: { createdAt: "asc" } });
    if (senders.length === 0) {
      unknown.push(item.wabaId);
      continue;
    }
    const providerTemplateId = String(item.value.message_template_id);
    const digest = createHash("sha256")
      .update(`${item.field}\n${JSON.stringify(item.raw)}`)
      .digest("hex")
      .slice(0, 32);
    const customerIds = [...new Set(senders.map((s) => s.customerId))];
    for (const customerId of customerIds) {
      const name = item.value.message_template_name ?? `template_${providerTemplateId}`;
      const language = item.value.message_template_language ?? "";
      const set = changes(item);
      const found = await tx.template.findFirst({
        where: { customerId, OR: [{ providerTemplateId }, { name, language }] },
        orderBy: { createdAt: "asc" },
      });
      const template = found
        ? await tx.template.update({
            where: { id: found.id },
            data: { ...set, providerTemplateId, wabaId: item.wabaId },
          })
        : await tx.template.create({
            data: { customerId, wabaId: item.wabaId, providerTemplateId, name, language, category: "unknown", ...set },
          });
      for (const sender of senders.filter((s) => s.customerId === customerId)) {
        events.push(
          EVENT_OF[item.field].of({
            sender,
            dedupeKey: `template:${sender.id}:${digest}`,
            data: {
              templateUid: template.id,
              providerTemplateId,
              name: template.name,
              language: template.language,
              status: template.status,
              category: template.category,
              quality: template.quality,
              update: item.raw,
            },
          }),
        );
      }
    }
  }
  return { events: await emitEvents(tx, events), unknown };
}

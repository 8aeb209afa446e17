// The provider's webhook envelope (Meta WhatsApp Cloud API). Unknown keys are kept
// (looseObject) because the provider adds fields over time; conversation and pricing
// are optional. Only what ingestion reads is required.
import { z } from "zod";

const str = z.string();
const numOrStr = z.union([z.string(), z.number()]).transform((v) => String(v));

export const ProviderPricing = z.looseObject({
  billable: z.boolean().optional(),
  pricing_model: str.optional(),
  type: str.optional(),
  category: str.optional(),
});

export const ProviderConversation = z.looseObject({
  id: str.optional(),
  expiration_timestamp: numOrStr.optional(),
  origin: z.looseObject({ type: str.optional() }).optional(),
});

export const ProviderError = z.looseObject({
  code: z.coerce.number().int().optional(),
  title: str.optional(),
  message: str.optional(),
});

export const ProviderStatus = z.looseObject({
  id: str.min(1),
  status: str.min(1),
  timestamp: numOrStr,
  recipient_id: str.optional(),
  pricing: ProviderPricing.optional(),
  conversation: ProviderConversation.optional(),
  errors: z.array(ProviderError).optional(),
});

export const ProviderMessage = z.looseObject({
  id: str.min(1),
  from: str.optional(),
  timestamp: numOrStr,
  type: str.min(1),
});

export const ProviderMessagesValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: numOrStr, display_phone_number: numOrStr.optional() }),
  statuses: z.array(ProviderStatus).optional(),
  messages: z.array(ProviderMessage).optional(),
  contacts: z.array(z.looseObject({ wa_id: str.optional(), profile: z.looseObject({}).optional() })).optional(),
});

export const TemplateUpdateValue = z.looseObject({
  message_template_id: numOrStr,
  message_template_name: str.optional(),
  message_template_language: str.optional(),
});

export const ProviderChange = z.looseObject({ field: str, value: z.unknown() });

export const ProviderEnvelope = z.looseObject({
  object: str,
  entry: z.array(
    z.looseObject({ id: numOrStr, time: z.number().optional(), changes: z.array(ProviderChange).default([]) }),
  ),
});

export const TEMPLATE_FIELDS = [
  "message_template_status_update",
  "template_category_update",
  "message_template_quality_update",
] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

export type ProviderStatusT = z.infer<typeof ProviderStatus>;
export type ProviderMessageT = z.infer<typeof ProviderMessage>;
export type ProviderMessagesValueT = z.infer<typeof ProviderMessagesValue>;
export type TemplateUpdateValueT = z.infer<typeof TemplateUpdateValue>;

export type ParsedChange =
  | { kind: "messages"; entryId: string; value: ProviderMessagesValueT }
  | { kind: "template"; entryId: string; field: TemplateField; value: TemplateUpdateValueT; raw: unknown }
  | { kind: "other"; entryId: string; field: string };

/**
 * Parses and validates the whole body (every change); throws on the first malformed part,
 * so a bad payload is rejected before anything is stored.
 */
export function parseProviderBody(raw: string): ParsedChange[] {
  // Template ids are JSON numbers that may exceed 2^53: read them as strings.
  const json: unknown = JSON.parse(raw.replace(/("message_template_id"\s*:\s*)(-?\d+)/g, '$1"$2"'));
  const envelope = ProviderEnvelope.parse(json);
  const out: ParsedChange[] = [];
  for (const entry of envelope.entry) {
    for (const change of entry.changes) {
      if (change.field === "messages") {
        out.push({ kind: "messages", entryId: entry.id, value: ProviderMessagesValue.parse(change.value) });
      } else if ((TEMPLATE_FIELDS as readonly string[]).includes(change.field)) {
        out.push({
          kind: "template",
          entryId: entry.id,
          field: change.field as TemplateField,
          value: TemplateUpdateValue.parse(change.value),
          raw: change.value,
        });
      } else {
        out.push({ kind: "other", entryId: entry.id, field: change.field });
      }
    }
  }
  return out;
}

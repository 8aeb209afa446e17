// Templates: list query, create body and public shape (API, dashboard and OpenAPI).
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { isoTimestamp } from "@/lib/core/timestamp-schema";

export const TEMPLATE_CATEGORIES = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export const TEMPLATE_STATUSES = ["APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED"] as const;
export const TEMPLATE_SOURCES = ["AUTO_GENERATED", "MANUAL"] as const;

const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const upper = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim().toUpperCase()) : v);

export const TemplateListQuery = PageQuery.extend({
  status: z.preprocess(upper, z.enum(TEMPLATE_STATUSES).optional()),
  category: z.preprocess(upper, z.enum(TEMPLATE_CATEGORIES).optional()),
  language: z.preprocess(blankAsAbsent, z.string().trim().max(15).optional()),
  search: z.preprocess(blankAsAbsent, z.string().trim().max(200).optional()).describe("Matches the template name"),
  source: z.preprocess(upper, z.enum(TEMPLATE_SOURCES).optional()).describe("v3 only: AUTO_GENERATED or MANUAL"),
});
export type TemplateListInput = z.infer<typeof TemplateListQuery>;

export const TemplateGetQuery = z.object({
  language: z.preprocess(blankAsAbsent, z.string().trim().max(15).optional()),
});

export const TemplateFields = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, "Name: lower-case letters, digits and underscores (at most 512)"),
  language: z.string().trim().min(2).max(15).default("en"),
  category: z.preprocess(upper, z.enum(TEMPLATE_CATEGORIES)),
  components: z.array(z.record(z.string(), z.unknown())).min(1, "At least one component (e.g. BODY)").max(30),
});
export type TemplateInput = z.infer<typeof TemplateFields>;

export const TemplateCreateBody = z.object({ senderId: z.string().optional(), template: TemplateFields });

export const PublicTemplate = z
  .object({
    templateUid: z.string(),
    uid: z.string(),
    name: z.string(),
    language: z.string(),
    category: z.string(),
    status: z.string(),
    quality: z.string().nullable(),
    components: z.array(
      z
        .looseObject({ type: z.string().describe("HEADER, BODY, FOOTER or BUTTONS") })
        .describe("A template component in the provider's shape (text, format, buttons, example...)"),
    ),
    rejectionReason: z.string().nullable(),
    providerTemplateId: z.string().nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
    source: z.enum(TEMPLATE_SOURCES).optional().describe("v3 only"),
    correctCategory: z.string().nullable().optional().describe("v3 only"),
  })
  .meta({ id: "Template" });

export const TemplateListPublic = z.object({
  templates: z.array(PublicTemplate),
  items: z.array(PublicTemplate),
  pagination: PageBlockSchema,
});

export const TemplateSyncPublic = z.object({ synced: z.number().int().describe("Templates read from the provider") });

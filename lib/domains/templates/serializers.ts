import type { Version } from "@/lib/core/version";
import type { Template } from "@/lib/generated/prisma/client";

/** The public template; v3 adds source and correctCategory (docs/api/versions.md). */
export function toPublicTemplate(t: Template, version: Version) {
  return {
    templateUid: t.id,
    uid: t.id,
    name: t.name,
    language: t.language,
    category: t.category.toUpperCase(),
    status: t.status,
    quality: t.quality,
    components: Array.isArray(t.components) ? t.components : [],
    rejectionReason: t.rejectionReason,
    providerTemplateId: t.providerTemplateId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    ...(version === "v3" ? { source: t.source, correctCategory: t.correctCategory?.toUpperCase() ?? null } : {}),
  };
}

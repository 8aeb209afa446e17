// Templates: each with its text, review status (and the rejection reason), quality, category
// and source; "New template" opens the builder, "Sync from provider" reads the account's
// templates from the provider (as POST /templates/sync does).

import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { button, card, link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { countOf } from "@/lib/core/count";
import { requirePermission } from "@/lib/dashboard/guard";
import { renderTemplate } from "@/lib/domains/templates/fill";
import { listTemplates } from "@/lib/domains/templates/service";
import { RefreshWhilePending } from "./refresh-while-pending";
import { SyncButton } from "./sync-button";
import { sourceText } from "./template-source";
import { qualityText, TemplateStatus } from "./template-status";

export const metadata: Metadata = { title: "Templates · Switchboard" };
export const dynamic = "force-dynamic";

const COLUMNS = [
  { key: "name", label: "Name" },
  { key: "text", label: "Text" },
  { key: "language", label: "Language" },
  { key: "category", label: "Category" },
  { key: "status", label: "Status" },
  { key: "quality", label: "Quality" },
  { key: "source", label: "Source" },
  { key: "updated", label: "Updated" },
];

// The list follows templates submitted in the last ten minutes (a review takes moments); one
// pending for longer is not worth a reload every two seconds (its own page still follows it).
const IN_REVIEW_MS = 10 * 60_000;

export default async function TemplatesPage() {
  const p = await requirePermission("templates");
  const { templates, pagination } = await listTemplates(p, { page: 1, limit: 100 }, "v3");
  return (
    <div className="space-y-6">
      <RefreshWhilePending
        pending={templates.some((t) => t.status === "PENDING" && Date.now() - t.createdAt.getTime() < IN_REVIEW_MS)}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Templates</h1>
        <div className="flex flex-wrap gap-2">
          <SyncButton />
          <IntentLink href="/templates/new" className={button}>
            New template
          </IntentLink>
        </div>
      </div>
      <DataTable
        label="Templates"
        className={`${card} p-0`}
        caption={countOf(pagination.total, "template")}
        columns={COLUMNS}
        rowCount={templates.length}
        empty={
          <EmptyState title="No templates yet">
            Create one with <IntentLink href="/templates/new">New template</IntentLink>, or sync them from the provider.
          </EmptyState>
        }
      >
        {templates.map((t) => (
          <tr key={t.id} data-testid="template-row">
            <td className={`${td} font-mono`}>
              <IntentLink href={`/templates/${t.id}`} className={link}>
                {t.name}
              </IntentLink>
            </td>
            <td className={`${td} max-w-xs truncate`} title={renderTemplate(t.components, {}).body}>
              {renderTemplate(t.components, {}).body || "—"}
            </td>
            <td className={td}>{t.language}</td>
            <td className={td}>
              {t.category.toLowerCase()}
              {t.correctCategory && t.correctCategory !== t.category ? (
                <span className="ml-1 text-xs text-amber-800 dark:text-amber-300">
                  (provider: {t.correctCategory.toLowerCase()})
                </span>
              ) : null}
            </td>
            <td className={td}>
              <TemplateStatus status={t.status} rejectionReason={t.rejectionReason} />
            </td>
            <td className={td}>{qualityText(t.quality)}</td>
            <td className={td}>{sourceText(t)}</td>
            <td className={td}>{formatDateTime(t.updatedAt)}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

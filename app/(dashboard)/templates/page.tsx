// Templates with their review status, category and source.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { card, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { countOf, formatDateTime } from "@/components/ui/format";
import { requirePermission } from "@/lib/dashboard/guard";
import { listTemplates } from "@/lib/domains/templates/service";

export const metadata: Metadata = { title: "Templates · Switchboard" };
export const dynamic = "force-dynamic";

const STATUS: Record<string, string> = {
  APPROVED: "text-emerald-800 dark:text-emerald-300",
  PENDING: "text-amber-800 dark:text-amber-300",
  REJECTED: "text-red-800 dark:text-red-300",
  PAUSED: "text-amber-800 dark:text-amber-300",
};

const COLUMNS = [
  { key: "name", label: "Name" },
  { key: "language", label: "Language" },
  { key: "category", label: "Category" },
  { key: "status", label: "Status" },
  { key: "quality", label: "Quality" },
  { key: "source", label: "Source" },
  { key: "updated", label: "Updated" },
];

export default async function TemplatesPage() {
  const p = await requirePermission("templates");
  const { templates, pagination } = await listTemplates(p, { page: 1, limit: 100 }, "v3");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Templates</h1>
      <DataTable
        label="Templates"
        className={`${card} p-0`}
        caption={countOf(pagination.total, "template")}
        columns={COLUMNS}
        rowCount={templates.length}
        empty={<EmptyState title="No templates yet">Create templates with POST /api/v3/templates.</EmptyState>}
      >
        {templates.map((t) => (
          <tr key={t.id}>
            <td className={`${td} font-mono`}>{t.name}</td>
            <td className={td}>{t.language}</td>
            <td className={td}>
              {t.category.toLowerCase()}
              {t.correctCategory && t.correctCategory !== t.category ? (
                <span className="ml-1 text-xs text-amber-800 dark:text-amber-300">
                  (provider: {t.correctCategory.toLowerCase()})
                </span>
              ) : null}
            </td>
            <td className={`${td} font-semibold ${STATUS[t.status] ?? ""}`}>{t.status.toLowerCase()}</td>
            <td className={td}>{t.quality?.toLowerCase() ?? "—"}</td>
            <td className={td}>{t.source === "AUTO_GENERATED" ? "auto-generated" : "manual"}</td>
            <td className={td}>{formatDateTime(t.updatedAt)}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

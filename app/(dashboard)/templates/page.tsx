// Templates with their review status, category and source.
import type { Metadata } from "next";
import { card, table, td, th } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { ScrollRegion } from "@/components/ui/scroll-region";
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

export default async function TemplatesPage() {
  const p = await requirePermission("templates");
  const { templates, pagination } = await listTemplates(p, { page: 1, limit: 100 }, "v3");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Templates</h1>
      {templates.length === 0 ? (
        <EmptyState title="No templates yet">Create templates with POST /api/v3/templates.</EmptyState>
      ) : (
        <ScrollRegion label="Templates" className={`${card} p-0`}>
          <table className={table}>
            <caption className="sr-only">{pagination.total} templates</caption>
            <thead>
              <tr>
                <th className={th}>Name</th>
                <th className={th}>Language</th>
                <th className={th}>Category</th>
                <th className={th}>Status</th>
                <th className={th}>Quality</th>
                <th className={th}>Source</th>
                <th className={th}>Updated</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
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
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}

// Labels (docs/automation.md "Labels"): the account's labels, shown on inbox conversations and
// contacts and used by automation rules: create, rename, recolour, delete. Owners and admins
// (inbox settings); the labels service checks it too.
import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { LabelChip } from "@/components/dashboard/label-chip";
import { CardSection } from "@/components/ui/card-section";
import { td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/dashboard/guard";
import { listLabels } from "@/lib/domains/labels/service";
import { LabelControls, LabelForm } from "./label-forms";

export const metadata: Metadata = { title: "Labels · Switchboard" };
export const dynamic = "force-dynamic";

const COLUMNS = [{ key: "label", label: "Label" }, { key: "description", label: "Description" }, actionsColumn()];

export default async function LabelsPage() {
  const p = await requirePermission("inbox.settings");
  const labels = await listLabels(p);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Labels</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Labels mark conversations and contacts in the inbox; automation rules can put them on, take them off and read
        them.
      </p>
      <CardSection id="new-label" title="Create a label">
        <LabelForm />
      </CardSection>
      <DataTable label="Labels" columns={COLUMNS} rowCount={labels.length} empty={<EmptyState title="No labels yet" />}>
        {labels.map((l) => (
          <tr key={l.id} data-testid="label-row">
            <td className={td}>
              <LabelChip name={l.name} color={l.color} />
            </td>
            <td className={td}>{l.description}</td>
            <td className={td}>
              <LabelControls value={{ id: l.id, name: l.name, color: l.color, description: l.description }} />
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

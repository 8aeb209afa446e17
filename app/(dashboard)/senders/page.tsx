import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { card, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { requirePermission } from "@/lib/dashboard/guard";
import { providerMode } from "@/lib/domains/provider/client";
import { listSenders } from "@/lib/domains/senders/service";
import { MakeDefaultButton, RemoveSenderButton, RenameSenderForm, SenderForm } from "./sender-form";

export const metadata: Metadata = { title: "Senders · Switchboard" };

export default async function SendersPage() {
  const p = await requirePermission("senders");
  const senders = await listSenders(p);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Senders</h1>
      <section className={card}>
        <h2 className="mb-3 text-lg font-semibold">Add a sender</h2>
        <SenderForm simulated={providerMode() === "simulator"} />
      </section>
      <DataTable
        label="Sender numbers"
        className={`${card} p-0`}
        columns={[
          { key: "number", label: "Number" },
          { key: "name", label: "Name" },
          { key: "phone-number-id", label: "Provider phone number id" },
          { key: "connection", label: "Connection" },
          { key: "setup", label: "Setup" },
          { key: "added", label: "Added" },
          actionsColumn(),
        ]}
        rowCount={senders.length}
        empty={
          <EmptyState title="No sender numbers yet">
            Add your first phone number above: it becomes the default sender.
          </EmptyState>
        }
      >
        {senders.map((s) => (
          <tr key={s.id}>
            <td className={`${td} font-mono`}>
              {s.phoneNumber}
              {s.isDefault && (
                <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">default</span>
              )}
            </td>
            <td className={td}>
              {s.deactivatedAt ? (
                (s.displayName ?? "—")
              ) : (
                <RenameSenderForm phoneNumber={s.phoneNumber} displayName={s.displayName} />
              )}
            </td>
            <td className={`${td} font-mono`}>{s.phoneNumberId ?? "—"}</td>
            <td className={td}>
              {s.deactivatedAt
                ? `removed ${formatDateTime(s.deactivatedAt)} (history kept)`
                : s.connectionStatus.toLowerCase()}
            </td>
            <td className={td}>
              {s.phoneNumberId ? (
                "Complete"
              ) : (
                <span className="text-amber-800 dark:text-amber-300">Setup incomplete</span>
              )}
            </td>
            <td className={td}>{formatDateTime(s.createdAt)}</td>
            <td className={td}>
              {s.deactivatedAt ? null : (
                <div className="flex gap-2">
                  {s.isDefault ? null : <MakeDefaultButton phoneNumber={s.phoneNumber} />}
                  <RemoveSenderButton phoneNumber={s.phoneNumber} />
                </div>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

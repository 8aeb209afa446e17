import type { Metadata } from "next";
import { card, table, td, th } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { requirePermission } from "@/lib/dashboard/guard";
import { providerMode } from "@/lib/domains/provider/client";
import { listSenders } from "@/lib/domains/senders/service";
import { MakeDefaultButton, SenderForm } from "./sender-form";

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
      {senders.length === 0 ? (
        <EmptyState title="No sender numbers yet">
          Add your first phone number above: it becomes the default sender.
        </EmptyState>
      ) : (
        <ScrollRegion label="Sender numbers" className={`${card} p-0`}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>Number</th>
                <th className={th}>Name</th>
                <th className={th}>Provider phone number id</th>
                <th className={th}>Connection</th>
                <th className={th}>Setup</th>
                <th className={th}>Added</th>
                <th className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {senders.map((s) => (
                <tr key={s.id}>
                  <td className={`${td} font-mono`}>
                    {s.phoneNumber}
                    {s.isDefault && (
                      <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs dark:bg-slate-800">default</span>
                    )}
                  </td>
                  <td className={td}>{s.displayName ?? "—"}</td>
                  <td className={`${td} font-mono`}>{s.phoneNumberId ?? "—"}</td>
                  <td className={td}>{s.connectionStatus.toLowerCase()}</td>
                  <td className={td}>
                    {s.phoneNumberId ? (
                      "Complete"
                    ) : (
                      <span className="text-amber-800 dark:text-amber-300">Setup incomplete</span>
                    )}
                  </td>
                  <td className={td}>{formatDateTime(s.createdAt)}</td>
                  <td className={td}>{s.isDefault ? null : <MakeDefaultButton phoneNumber={s.phoneNumber} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}

"use client";
// The message log with live status: refetched when the live stream says a message or its
// status changed (docs/inbox.md "Live updates"); polled every two seconds only without it.
import { useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/dashboard/data-table";
import { useLiveUpdates } from "@/components/dashboard/use-live-updates";
import { card, muted, td } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import { livePoll } from "@/lib/dashboard/query-retry";

const STATUS_STYLE: Record<string, string> = {
  read: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  delivered: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  sent: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  queued: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};

export function MessageLog({ senderId }: { senderId: string }) {
  const live = useLiveUpdates();
  const { data, isLoading, isError } = useQuery({
    queryKey: queryKeys.messages(senderId),
    queryFn: () => dashboardApi.messages(senderId),
    refetchInterval: livePoll(live, 2_000),
    staleTime: 0,
  });
  return (
    <section className={`${card} p-0`} aria-labelledby="log-title">
      <h2 id="log-title" className="px-4 pt-4 text-lg font-semibold">
        Recent messages
      </h2>
      {isLoading ? <p className={`${muted} p-4`}>Loading…</p> : null}
      {isError ? <p className="p-4 text-sm text-red-700">Could not load messages.</p> : null}
      {data ? (
        <DataTable
          label="Recent messages"
          columns={[
            { key: "sent", label: "Sent" },
            { key: "recipient", label: "Recipient" },
            { key: "content", label: "Content" },
            { key: "route", label: "Route" },
            { key: "status", label: "Status" },
          ]}
          rowCount={data.messages.length}
          empty={<p className={`${muted} p-4`}>No messages yet.</p>}
        >
          {data.messages.map((m) => (
            <tr key={m.messageUid} data-testid="message-row">
              <td className={td}>{formatDateTime(m.createdAt)}</td>
              <td className={`${td} font-mono`}>{m.recipient}</td>
              <td className={`${td} max-w-xs truncate`} title={m.text ?? undefined}>
                {m.templateName ? `Template ${m.templateName}` : (m.text ?? m.type)}
              </td>
              <td className={td}>{m.sendRoute}</td>
              <td className={td}>
                <span
                  className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[m.status] ?? "bg-slate-100 dark:bg-slate-800"}`}
                >
                  {m.status}
                </span>
                {m.errorMessage && m.status === "failed" ? (
                  <span className={`${muted} ml-2`}>{m.errorMessage}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { button, link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { pageBlock } from "@/lib/core/pagination";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { ChatbotListQuery } from "@/lib/domains/chatbots/schemas";
import { toPublicChatbot } from "@/lib/domains/chatbots/serializers";
import { listChatbots } from "@/lib/domains/chatbots/service";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

export const metadata: Metadata = { title: "Chatbots · Switchboard" };

export default async function ChatbotsPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("chatbots");
  const params = flatParams(await searchParams);
  const sender = await pageSender(p, params.sender);
  if (!sender) {
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-semibold">Chatbots</h1>
        <EmptyState title="No sender numbers yet">Chatbots answer per sender number; connect one first.</EmptyState>
      </div>
    );
  }
  const query = listQuery(ChatbotListQuery, params);
  const { chatbots, total } = await listChatbots(p, sender, query);
  const pagination = pageBlock(query.page, query.limit, total, chatbots.length);
  const rows = chatbots.map(toPublicChatbot);
  const qs = `?sender=${encodeURIComponent(sender.phoneNumber)}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Chatbots</h1>
          <SenderInForce sender={senderInfo(sender)} chosen={Boolean(params.sender)} />
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Automatic replies for sender <span className="font-mono">{sender.phoneNumber}</span>. At most one is active
            per sender; switch sender at the top.
          </p>
        </div>
        <IntentLink className={button} href={`/chatbots/new${qs}`}>
          New chatbot
        </IntentLink>
      </div>
      <DataTable
        label="Chatbots"
        columns={[
          { key: "name", label: "Name" },
          { key: "status", label: "Status" },
          { key: "rules", label: "Rules" },
          { key: "hours", label: "Business hours" },
          { key: "updated", label: "Updated" },
        ]}
        rowCount={rows.length}
        empty={
          <EmptyState title="No chatbots for this sender">
            Create one to greet customers and answer common questions.
          </EmptyState>
        }
      >
        {rows.map((b) => (
          <tr key={b.uid} data-testid="chatbot-row">
            <td className={td}>
              <IntentLink className={link} href={`/chatbots/${b.uid}${qs}`}>
                {b.name}
              </IntentLink>
            </td>
            <td className={td}>
              <span
                className={
                  b.status === "ACTIVE"
                    ? "rounded bg-green-100 px-2 py-0.5 text-green-900 dark:bg-green-950 dark:text-green-200"
                    : "rounded bg-slate-100 px-2 py-0.5 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
                }
              >
                {b.status}
              </span>
            </td>
            <td className={td}>{b.rules.length}</td>
            <td className={td}>{b.businessHours ? b.businessHours.timezone : "Always open"}</td>
            <td className={td}>{formatDateTime(b.updatedAt)}</td>
          </tr>
        ))}
      </DataTable>
      <Pager path="/chatbots" params={params} pagination={pagination} />
    </div>
  );
}

import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { card } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { ChatbotEditor } from "../chatbot-editor";

export const metadata: Metadata = { title: "New chatbot · Switchboard" };

export default async function NewChatbotPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("chatbots");
  const params = flatParams(await searchParams);
  const sender = await pageSender(p, params.sender);
  if (!sender) return <EmptyState title="No sender numbers yet" />;
  return (
    <div className="space-y-6">
      <SubpageHeader
        backHref={`/chatbots?sender=${encodeURIComponent(sender.phoneNumber)}`}
        backLabel="All chatbots"
        title="New chatbot"
      >
        <SenderInForce sender={senderInfo(sender)} chosen={Boolean(params.sender)} />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          For sender <span className="font-mono">{sender.phoneNumber}</span>. It starts inactive: test it, then activate
          it.
        </p>
      </SubpageHeader>
      <div className={card}>
        <ChatbotEditor senderPhone={sender.phoneNumber} />
      </div>
    </div>
  );
}

// Messages: the composer (template or session text from the chosen sender) and the live log.
import type { Metadata } from "next";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/dashboard/guard";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { listTemplates } from "@/lib/domains/templates/service";
import { Composer } from "./composer";
import { MessageLog } from "./message-log";

export const metadata: Metadata = { title: "Messages · Switchboard" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ sender?: string }> };

export default async function MessagesPage({ searchParams }: Props) {
  const p = await requirePermission("inbox");
  const requested = (await searchParams).sender;
  const sender = await pageSender(p, requested);
  if (!sender) {
    return <EmptyState title="No sender numbers yet">Connect a phone number before sending messages.</EmptyState>;
  }
  const { templates } = await listTemplates(p, { page: 1, limit: 100, status: "APPROVED" }, "v3");
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Messages</h1>
        <SenderInForce sender={senderInfo(sender)} chosen={Boolean(requested)} />
      </div>
      <Composer
        sender={senderInfo(sender)}
        senderChosen={Boolean(requested)}
        setUp={Boolean(sender.phoneNumberId)}
        templates={templates.map((t) => ({
          name: t.name,
          language: t.language,
          category: t.category,
          components: t.components,
        }))}
      />
      <MessageLog senderId={sender.phoneNumber} />
    </div>
  );
}

// The template builder: a new template for the sender's business account, submitted for review.
import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { card } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { TemplateBuilder } from "./template-builder";

export const metadata: Metadata = { title: "New template · Switchboard" };
export const dynamic = "force-dynamic";

export default async function NewTemplatePage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("templates");
  const params = flatParams(await searchParams);
  const sender = await pageSender(p, params.sender);
  if (!sender) {
    return <EmptyState title="No sender numbers yet">Connect a phone number before creating templates.</EmptyState>;
  }
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/templates" backLabel="All templates" title="New template">
        <SenderInForce sender={senderInfo(sender)} chosen={Boolean(params.sender)} />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Submitted to the provider for review; it can be sent once approved.
        </p>
      </SubpageHeader>
      <div className={card}>
        <TemplateBuilder senderPhone={sender.phoneNumber} />
      </div>
    </div>
  );
}

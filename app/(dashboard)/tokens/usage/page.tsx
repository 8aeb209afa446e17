import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { UsageView } from "@/components/dashboard/usage-view";
import { requirePermission } from "@/lib/dashboard/guard";
import { listTokens } from "@/lib/domains/tokens/service";
import { usageFor } from "@/lib/domains/tokens/usage";

export const metadata: Metadata = { title: "API usage · Switchboard" };

export default async function AccountUsagePage() {
  const p = await requirePermission("tokens");
  const [usage, tokens] = await Promise.all([usageFor(p), listTokens(p)]);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/tokens" backLabel="All tokens" title="API usage (all tokens)" />
      <UsageView usage={usage} tokenNames={new Map(tokens.map((t) => [t.id, `${t.name} (${t.prefix}…)`]))} />
    </div>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { UsageView } from "@/components/dashboard/usage-view";
import { link } from "@/components/ui/classes";
import { requirePrincipal } from "@/lib/dashboard/session";
import { listTokens } from "@/lib/tokens/service";
import { usageFor } from "@/lib/tokens/usage";

export const metadata: Metadata = { title: "API usage · Switchboard" };

export default async function AccountUsagePage() {
  const p = await requirePrincipal();
  const [usage, tokens] = await Promise.all([usageFor(p), listTokens(p)]);
  return (
    <div className="space-y-6">
      <div>
        <Link href="/tokens" className={link}>
          ← All tokens
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">API usage (all tokens)</h1>
      </div>
      <UsageView usage={usage} tokenNames={new Map(tokens.map((t) => [t.id, `${t.name} (${t.prefix}…)`]))} />
    </div>
  );
}

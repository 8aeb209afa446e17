import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { UsageView } from "@/components/dashboard/usage-view";
import { link } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { requirePrincipal } from "@/lib/dashboard/session";
import { toPublicToken } from "@/lib/tokens/serializers";
import { findToken } from "@/lib/tokens/service";
import { usageFor } from "@/lib/tokens/usage";

export const metadata: Metadata = { title: "API token usage · Switchboard" };

type Props = { params: Promise<{ id: string }> };

export default async function TokenUsagePage({ params }: Props) {
  const p = await requirePrincipal();
  const { id } = await params;
  const found = await findToken(p, id);
  if (!found) notFound();
  const t = toPublicToken(found);
  const usage = await usageFor(p, { tokenId: t.id });
  return (
    <div className="space-y-6">
      <div>
        <Link href="/tokens" className={link}>
          ← All tokens
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t.name}</h1>
        <p className="mt-1 text-sm">
          <span className="font-mono">{t.prefix}…</span> ·{" "}
          {t.scope === "global" ? "Global" : `Number ${t.senderPhoneNumber}`} · {t.state}
          {t.expiresAt ? ` · stops working ${formatDateTime(t.expiresAt)}` : ""}
        </p>
      </div>
      <UsageView usage={usage} />
    </div>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { UsageView } from "@/components/dashboard/usage-view";
import { formatDateTime } from "@/components/ui/format";
import { requirePermission } from "@/lib/dashboard/guard";
import { toPublicToken } from "@/lib/domains/tokens/serializers";
import { findToken } from "@/lib/domains/tokens/service";
import { usageFor } from "@/lib/domains/tokens/usage";
import { permissionsText } from "../permissions-text";

export const metadata: Metadata = { title: "API token usage · Switchboard" };

type Props = { params: Promise<{ id: string }> };

export default async function TokenUsagePage({ params }: Props) {
  const p = await requirePermission("tokens");
  const { id } = await params;
  const found = await findToken(p, id);
  if (!found) notFound();
  const t = toPublicToken(found);
  const usage = await usageFor(p, { tokenId: t.id });
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/tokens" backLabel="All tokens" title={t.name}>
        <p className="mt-1 text-sm">
          <span className="font-mono">{t.prefix}…</span> ·{" "}
          {t.scope === "global" ? "Global" : `Number ${t.senderPhoneNumber}`} · {t.state}
          {t.expiresAt ? ` · stops working ${formatDateTime(t.expiresAt)}` : ""}
        </p>
        <p className="mt-1 text-sm" data-testid="token-permissions">
          Permissions: {permissionsText(t.permissions)}
        </p>
      </SubpageHeader>
      <UsageView usage={usage} />
    </div>
  );
}

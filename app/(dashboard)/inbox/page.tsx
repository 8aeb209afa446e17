// Inbox: the conversations of the chosen sender (or every sender), a live thread and the
// reply box (docs/inbox.md). The client side reads /api/dashboard/conversations (lib/api/dashboard-routes/inbox.ts), refetched
// on the live stream's notices (polled only without it).
import type { Metadata } from "next";
import { Suspense } from "react";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { IntentLink } from "@/components/ui/intent-link";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { can } from "@/lib/domains/auth/access";
import { listLabels } from "@/lib/domains/labels/service";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { listTemplates } from "@/lib/domains/templates/service";
import { Inbox } from "./inbox";

export const metadata: Metadata = { title: "Inbox · Switchboard" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<RawSearchParams> };

export default async function InboxPage({ searchParams }: Props) {
  const p = await requirePermission("inbox");
  const { sender: requested } = flatParams(await searchParams);
  // An unknown sender is SENDER_NOT_FOUND, not an empty inbox; none chosen: every sender.
  const sender = requested ? await pageSender(p, requested) : undefined;
  const [{ templates }, labels] = await Promise.all([
    listTemplates(p, { page: 1, limit: 100, status: "APPROVED" }, "v3"),
    listLabels(p),
  ]);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Inbox</h1>
        {can(p, "inbox.settings") ? (
          <span className="flex gap-4">
            <IntentLink href="/inbox/labels" className="text-sm underline">
              Labels
            </IntentLink>
            <IntentLink href="/inbox/settings" className="text-sm underline">
              Saved replies and auto-assignment
            </IntentLink>
          </span>
        ) : null}
      </div>
      <SenderInForce sender={sender ? senderInfo(sender) : null} chosen={Boolean(requested)} />
      <Suspense>
        <Inbox
          templates={templates.map((t) => ({
            name: t.name,
            language: t.language,
            category: t.category,
            components: t.components,
          }))}
          me={p.member?.email ?? null}
          canBlacklist={can(p, "contacts.write")}
          labels={labels.map((l) => ({ name: l.name, color: l.color }))}
        />
      </Suspense>
    </div>
  );
}

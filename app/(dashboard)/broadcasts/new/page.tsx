// New broadcast (docs/broadcasts.md "How to send one"): sender, approved template, audience with
// a live count, variables with a live preview, schedule and pace, then a review with the
// estimate against the balance. The form is broadcast-form.tsx; this page reads what it offers.
import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { segmentChoices } from "@/lib/domains/broadcasts/segments";
import { listContactBooks } from "@/lib/domains/contacts/books";
import { listContactFields } from "@/lib/domains/contacts/fields";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { listSenders } from "@/lib/domains/senders/service";
import { listTemplates } from "@/lib/domains/templates/service";
import { BroadcastForm } from "./broadcast-form";

export const metadata: Metadata = { title: "New broadcast · Switchboard" };
export const dynamic = "force-dynamic";

export default async function NewBroadcastPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("broadcasts");
  const params = flatParams(await searchParams);
  const sender = await pageSender(p, params.sender);
  const header = (
    <SubpageHeader backHref="/broadcasts" backLabel="All broadcasts" title="New broadcast">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        One approved template to the contacts of your books, each contact at most once, paced inside the sender&apos;s
        limits.
      </p>
    </SubpageHeader>
  );
  if (!sender) {
    return (
      <div className="space-y-6">
        {header}
        <EmptyState title="No sender numbers yet">Connect a phone number before sending a broadcast.</EmptyState>
      </div>
    );
  }
  const [senders, { templates }, { books }, fields, segments] = await Promise.all([
    listSenders(p),
    listTemplates(p, { page: 1, limit: 100, status: "APPROVED" }, "v3"),
    listContactBooks(p, { page: 1, limit: 100, status: "ACTIVE" }),
    listContactFields(p),
    segmentChoices(p),
  ]);
  return (
    <div className="space-y-6">
      {header}
      {/* A sender chosen in the header starts the form anew from it. */}
      <BroadcastForm
        key={sender.phoneNumber}
        senders={senders
          .filter((s) => !s.deactivatedAt)
          .map((s) => ({ phoneNumber: s.phoneNumber, displayName: s.displayName, isDefault: s.isDefault }))}
        initialSender={sender.phoneNumber}
        templates={templates.map((t) => ({
          name: t.name,
          language: t.language,
          category: t.category,
          components: t.components,
        }))}
        books={books.map((b) => ({ uid: b.id, name: b.name, contacts: b._count.contacts }))}
        fields={fields.map((f) => ({ key: f.key, label: f.label }))}
        segments={segments}
        initialSegment={segments.some((s) => s.uid === params.segment) ? (params.segment ?? "") : ""}
      />
    </div>
  );
}

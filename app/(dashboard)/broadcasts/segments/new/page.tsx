// New segment (docs/automation.md "Segments"): the segment form with the account's books,
// contact fields and labels to choose from.
import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { requirePermission } from "@/lib/dashboard/guard";
import { segmentLabelChoices } from "@/lib/domains/broadcasts/segments";
import { listContactBooks } from "@/lib/domains/contacts/books";
import { listContactFields } from "@/lib/domains/contacts/fields";
import { SegmentForm } from "../segment-form";

export const metadata: Metadata = { title: "New segment · Switchboard" };
export const dynamic = "force-dynamic";

export default async function NewSegmentPage() {
  const p = await requirePermission("broadcasts");
  const [{ books }, fields, labels] = await Promise.all([
    listContactBooks(p, { page: 1, limit: 100, status: "ACTIVE" }),
    listContactFields(p),
    segmentLabelChoices(p),
  ]);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/broadcasts/segments" backLabel="All segments" title="New segment">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          A saved audience: a broadcast sent to it takes these rules when it starts.
        </p>
      </SubpageHeader>
      <SegmentForm
        books={books.map((b) => ({ uid: b.id, name: b.name, contacts: b._count.contacts }))}
        fields={fields.map((f) => ({ key: f.key, label: f.label }))}
        labels={labels}
      />
    </div>
  );
}

// A segment's page (docs/automation.md "Segments"): the segment form filled with its name and
// rules; saving replaces them (a broadcast already started keeps the rules it took).
import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { getSegment, rulesOf, segmentLabelChoices } from "@/lib/domains/broadcasts/segments";
import { listContactBooks } from "@/lib/domains/contacts/books";
import { listContactFields } from "@/lib/domains/contacts/fields";
import { SegmentForm } from "../segment-form";

export const metadata: Metadata = { title: "Segment · Switchboard" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ segmentUid: string }> };

export default async function SegmentPage({ params }: Props) {
  const p = await requirePermission("broadcasts");
  const { segmentUid } = await params;
  const row = await foundOr404(getSegment(p, segmentUid));
  const [{ books }, fields, labels] = await Promise.all([
    listContactBooks(p, { page: 1, limit: 100, status: "ACTIVE" }),
    listContactFields(p),
    segmentLabelChoices(p),
  ]);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/broadcasts/segments" backLabel="All segments" title={row.name}>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Saving replaces the rules; a broadcast already started keeps the rules it took.
        </p>
      </SubpageHeader>
      <SegmentForm
        books={books.map((b) => ({ uid: b.id, name: b.name, contacts: b._count.contacts }))}
        fields={fields.map((f) => ({ key: f.key, label: f.label }))}
        labels={labels}
        segment={{ uid: row.id, name: row.name, rules: rulesOf(row) }}
      />
    </div>
  );
}

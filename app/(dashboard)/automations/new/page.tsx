import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { card } from "@/components/ui/classes";
import { requirePermission } from "@/lib/dashboard/guard";
import { RuleEditor } from "../rule-editor";

export const metadata: Metadata = { title: "New rule · Switchboard" };

export default async function NewRulePage() {
  await requirePermission("automations");
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/automations" backLabel="All rules" title="New rule" />
      <section className={card} aria-label="Editor">
        <RuleEditor />
      </section>
    </div>
  );
}

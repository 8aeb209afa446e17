import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { card } from "@/components/ui/classes";
import { requirePermission } from "@/lib/dashboard/guard";
import { senderPhones } from "@/lib/domains/automation/service";
import { toPublicPolicy } from "@/lib/domains/sla/serializers";
import { listPolicies } from "@/lib/domains/sla/service";
import { PolicyForm, PolicyList } from "./sla-forms";

export const metadata: Metadata = { title: "SLA policies · Switchboard" };

// The account's SLA policies in its order (docs/reports.md "SLA policies"): list, create, delete.
export default async function SlaPoliciesPage() {
  const p = await requirePermission("automations");
  const phones = await senderPhones(p.customerId);
  const policies = (await listPolicies(p)).map((x) => toPublicPolicy(x, phones));
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/automations" backLabel="Automations" title="SLA policies" />
      <section className={card} aria-label="Policies">
        <PolicyList policies={policies} />
      </section>
      <section className={card} aria-labelledby="new-policy">
        <h2 id="new-policy" className="text-lg font-semibold">
          New policy
        </h2>
        <PolicyForm />
      </section>
    </div>
  );
}

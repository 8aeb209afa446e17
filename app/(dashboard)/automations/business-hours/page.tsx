import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { card } from "@/components/ui/classes";
import { requirePermission } from "@/lib/dashboard/guard";
import { getBusinessHoursSetting } from "@/lib/domains/automation/settings";
import { HoursForm } from "./hours-form";

export const metadata: Metadata = { title: "Business hours · Switchboard" };

export default async function BusinessHoursPage() {
  const p = await requirePermission("automations");
  const setting = await getBusinessHoursSetting(p);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/automations" backLabel="Automations" title="Business hours" />
      <section className={card} aria-label="Business hours">
        <HoursForm setting={setting} />
      </section>
    </div>
  );
}

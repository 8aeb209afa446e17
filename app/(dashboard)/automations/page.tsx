import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { button, buttonSecondary, link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { IntentLink } from "@/components/ui/intent-link";
import { pageBlock } from "@/lib/core/pagination";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { describeRule } from "@/lib/domains/automation/describe";
import { RuleListQuery } from "@/lib/domains/automation/schemas";
import { configOf, toPublicRule } from "@/lib/domains/automation/serializers";
import { listRules, senderPhones } from "@/lib/domains/automation/service";
import { EnabledToggle } from "./enabled-toggle";

export const metadata: Metadata = { title: "Automations · Switchboard" };

export default async function AutomationsPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("automations");
  const params = flatParams(await searchParams);
  const query = listQuery(RuleListQuery, params);
  const { rules, total } = await listRules(p, query);
  const phones = await senderPhones(p.customerId);
  const rows = rules.map((r) => ({ ...toPublicRule(r, phones), sentence: describeRule(configOf(r)) }));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Automations</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Rules that label, route, note and answer conversations by themselves, each at most once per message or
            timer.
          </p>
        </div>
        <div className="flex gap-2">
          <IntentLink className={buttonSecondary} href="/automations/business-hours">
            Business hours
          </IntentLink>
          <IntentLink className={buttonSecondary} href="/automations/sla">
            SLA policies
          </IntentLink>
          <IntentLink className={button} href="/automations/new">
            New rule
          </IntentLink>
        </div>
      </div>
      <DataTable
        label="Automation rules"
        columns={[
          { key: "name", label: "Name" },
          { key: "rule", label: "Rule" },
          { key: "enabled", label: "Enabled" },
        ]}
        rowCount={rows.length}
        empty={
          <EmptyState title="No rules yet">
            Create one to label, route or answer conversations automatically.
          </EmptyState>
        }
      >
        {rows.map((r) => (
          <tr key={r.ruleUid} data-testid="automation-row">
            <td className={td}>
              <IntentLink className={link} href={`/automations/${r.ruleUid}`}>
                {r.name}
              </IntentLink>
            </td>
            <td className={td}>{r.sentence}</td>
            <td className={td}>
              <span className="mr-2">{r.enabled ? "On" : "Off"}</span>
              <EnabledToggle uid={r.ruleUid} enabled={r.enabled} name={r.name} />
            </td>
          </tr>
        ))}
      </DataTable>
      <Pager path="/automations" params={params} pagination={pageBlock(query.page, query.limit, total, rows.length)} />
    </div>
  );
}

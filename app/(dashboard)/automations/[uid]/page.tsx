import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { CardSection } from "@/components/ui/card-section";
import { card, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { describeRule } from "@/lib/domains/automation/describe";
import { configOf, toPublicRule, toPublicRun } from "@/lib/domains/automation/serializers";
import { getRule, listRuns, runCountsPerDay, senderPhones } from "@/lib/domains/automation/service";
import { EnabledToggle } from "../enabled-toggle";
import { RuleEditor } from "../rule-editor";

export const metadata: Metadata = { title: "Rule · Switchboard" };

type Props = { params: Promise<{ uid: string }> };

export default async function RulePage({ params }: Props) {
  const p = await requirePermission("automations");
  const { uid } = await params;
  const row = await foundOr404(getRule(p, uid));
  const rule = toPublicRule(row, await senderPhones(p.customerId));
  const [{ runs }, counts] = await Promise.all([listRuns(p, uid, { page: 1, limit: 20 }), runCountsPerDay(p, uid)]);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/automations" backLabel="All rules" title={rule.name}>
        <p className="mt-1 text-sm" data-testid="rule-sentence">
          {describeRule(configOf(row))}
        </p>
        <div className="mt-1 flex items-center gap-3 text-sm">
          <span data-testid="rule-enabled">{rule.enabled ? "Enabled" : "Disabled"}</span>
          <EnabledToggle uid={rule.ruleUid} enabled={rule.enabled} name={rule.name} />
        </div>
      </SubpageHeader>
      <CardSection id="rule-runs" title="Last runs">
        <DataTable
          label="Last runs"
          columns={[
            { key: "at", label: "When" },
            { key: "trigger", label: "Trigger" },
            { key: "conversation", label: "Conversation" },
            { key: "outcome", label: "Outcome" },
            { key: "actions", label: "Actions" },
          ]}
          rowCount={runs.length}
          empty={<EmptyState title="No runs yet">The rule has not run.</EmptyState>}
        >
          {runs.map(toPublicRun).map((r) => (
            <tr key={r.runUid} data-testid="run-row">
              <td className={td}>{formatDateTime(r.at)}</td>
              <td className={td}>{r.trigger}</td>
              <td className={`${td} font-mono`}>{r.conversationUid}</td>
              <td className={td}>{r.outcome}</td>
              <td className={td}>
                <ul>
                  {r.actions.map((a, i) => (
                    <li key={i}>
                      {a.type}: {a.outcome}
                      {a.reason ? ` (${a.reason})` : ""}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </DataTable>
      </CardSection>
      <CardSection id="rule-counts" title="Runs per day (last 14 days)">
        <DataTable
          label="Runs per day"
          columns={[
            { key: "day", label: "Day" },
            { key: "done", label: "Done" },
            { key: "skipped", label: "Skipped" },
            { key: "failed", label: "Failed" },
          ]}
          rowCount={counts.length}
          empty={<EmptyState title="No runs in 14 days">Counts appear once the rule runs.</EmptyState>}
        >
          {counts.map((c) => (
            <tr key={c.day}>
              <td className={td}>{c.day}</td>
              <td className={td}>{c.done}</td>
              <td className={td}>{c.skipped}</td>
              <td className={td}>{c.failed}</td>
            </tr>
          ))}
        </DataTable>
      </CardSection>
      <section className={card} aria-label="Editor">
        <RuleEditor key={rule.updatedAt} rule={rule} />
      </section>
    </div>
  );
}

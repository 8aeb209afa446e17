// CSAT (docs/reports.md "CSAT"): the survey setting and the contacts' latest answers.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { CardSection } from "@/components/ui/card-section";
import { muted, td } from "@/components/ui/classes";
import { requirePermission } from "@/lib/dashboard/guard";
import { csatTemplateChoices, getCsatSetting } from "@/lib/domains/support/csat";
import { listCsatResponses } from "@/lib/domains/support/csat-report";
import { CSAT_ANSWERS } from "@/lib/domains/support/csat-schemas";
import { CsatForm } from "./csat-form";

export const metadata: Metadata = { title: "CSAT · Switchboard" };
export const dynamic = "force-dynamic";

const answerOf = (score: number) => CSAT_ANSWERS.find((a) => a.score === score)?.title ?? String(score);

export default async function CsatPage() {
  const p = await requirePermission("reports");
  const [setting, templates, { responses, total }] = await Promise.all([
    getCsatSetting(p),
    csatTemplateChoices(p),
    listCsatResponses(p, undefined, { page: 1, limit: 50 }),
  ]);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/reports" backLabel="Reports" title="CSAT" />
      <CardSection id="csat-survey" title="Survey">
        <CsatForm setting={setting} templates={templates} />
      </CardSection>
      <CardSection id="csat-answers" title="Latest answers">
        <p className={muted}>
          {total === 1 ? "1 answer" : `${total} answers`} in all; the newest 50 below, each with the member who closed
          the conversation.
        </p>
        <DataTable
          label="Latest answers"
          columns={[
            { key: "at", label: "Answered" },
            { key: "contact", label: "Contact" },
            { key: "score", label: "Answer" },
            { key: "member", label: "Closed by" },
            { key: "comment", label: "Comment" },
          ]}
          rowCount={responses.length}
          empty={<p className={muted}>No answers yet.</p>}
        >
          {responses.map((r) => (
            <tr key={`${r.conversationUid}-${r.at}`} data-testid="csat-row">
              <td className={td}>{r.at.slice(0, 16).replace("T", " ")} UTC</td>
              <td className={td}>{r.contactPhoneNumber}</td>
              <td className={td} data-testid="csat-score">
                {answerOf(r.score)}
              </td>
              <td className={td}>{r.memberId ?? "API"}</td>
              <td className={td}>{r.comment ?? ""}</td>
            </tr>
          ))}
        </DataTable>
      </CardSection>
    </div>
  );
}

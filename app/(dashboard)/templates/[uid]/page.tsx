// One template: its text (rendered with its samples), status with the rejection reason,
// quality, category and language; while in review it follows the provider's verdict.
import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { TemplatePreview } from "@/components/dashboard/template-fill";
import { card } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { sampleValues, slotLabel } from "@/lib/domains/templates/fill";
import { templateParameters } from "@/lib/domains/templates/parameters";
import { toPublicTemplate } from "@/lib/domains/templates/serializers";
import { getTemplate } from "@/lib/domains/templates/service";
import { RefreshWhilePending } from "../refresh-while-pending";
import { sourceText } from "../template-source";
import { qualityText, TemplateStatus } from "../template-status";

export const metadata: Metadata = { title: "Template · Switchboard" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ uid: string }> };

const dt = "text-sm text-slate-600 dark:text-slate-400";
const dd = "text-sm font-medium";

export default async function TemplatePage({ params }: Props) {
  const p = await requirePermission("templates");
  const { uid } = await params;
  const row = await foundOr404(getTemplate(p, uid));
  const t = toPublicTemplate(row, "v3");
  const slots = templateParameters(t.components).slots;
  return (
    <div className="space-y-6">
      <RefreshWhilePending pending={t.status === "PENDING"} />
      <SubpageHeader
        backHref="/templates"
        backLabel="All templates"
        title={<span className="font-mono">{t.name}</span>}
      />
      <section className={card} aria-label="Review">
        <dl className="grid gap-3 sm:grid-cols-3">
          <div>
            <dt className={dt}>Status</dt>
            <dd className={dd}>
              <TemplateStatus status={t.status} rejectionReason={t.rejectionReason} />
            </dd>
          </div>
          <div>
            <dt className={dt}>Quality</dt>
            <dd className={dd} data-testid="template-quality">
              {qualityText(t.quality)}
            </dd>
          </div>
          <div>
            <dt className={dt}>Category</dt>
            <dd className={dd}>
              {t.category.toLowerCase()}
              {t.correctCategory && t.correctCategory !== t.category
                ? ` (provider: ${t.correctCategory.toLowerCase()})`
                : ""}
            </dd>
          </div>
          <div>
            <dt className={dt}>Language</dt>
            <dd className={dd}>{t.language}</dd>
          </div>
          <div>
            <dt className={dt}>Source</dt>
            <dd className={dd}>{sourceText(row)}</dd>
          </div>
          <div>
            <dt className={dt}>Updated</dt>
            <dd className={dd}>{formatDateTime(t.updatedAt)}</dd>
          </div>
        </dl>
      </section>
      <section className={`${card} space-y-3`} aria-labelledby="tpl-text">
        <h2 id="tpl-text" className="text-lg font-semibold">
          Text
        </h2>
        <TemplatePreview components={t.components} values={{}} />
        {slots.length > 0 ? (
          <>
            <h3 className="text-sm font-semibold">With its samples</h3>
            <TemplatePreview components={t.components} values={sampleValues(t.components)} />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              A send fills: {slots.map((s) => `${slotLabel(s)}${s.required ? "" : " (optional)"}`).join("; ")}.
            </p>
          </>
        ) : null}
      </section>
    </div>
  );
}

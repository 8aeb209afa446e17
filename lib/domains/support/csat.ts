// CSAT (docs/reports.md "CSAT"): the account's setting, and the survey a person's close asks
// for. The close (lib/domains/conversations/service.ts) calls askCsatAtClose in its
// transaction: when the setting is on, one survey row per support period (unique periodId: a
// second close of the same period asks nothing; a reopen by the contact starts a new period)
// and a scheduled job that sends it (lib/domains/csat/send.ts) after the commit. A rule's or a
// chatbot's close never calls it.
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { scheduleJobs } from "@/lib/domains/schedule/jobs";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type CsatSetting, type CsatSettingBody, DEFAULT_CSAT_QUESTION, StoredCsatSetting } from "./csat-schemas";

/** The scheduled job kind that sends a survey. */
export const CSAT_JOB_KIND = "csat.ask";

const OFF: CsatSetting = { enabled: false, question: DEFAULT_CSAT_QUESTION, template: null };

function parseCsatSetting(stored: unknown): CsatSetting {
  if (stored === null || stored === undefined || typeof stored !== "object") return OFF;
  return StoredCsatSetting.parse(stored);
}

export async function csatSettingOf(customerId: string, tx: Tx = db): Promise<CsatSetting> {
  const row = await tx.customer.findUnique({ where: { id: customerId }, select: { csat: true } });
  return parseCsatSetting(row?.csat);
}

function guard(p: Principal): void {
  if (p.member) assertPermission(p, "reports");
  if (p.scopedSenderId) throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "The CSAT setting needs a global token");
}

export async function getCsatSetting(p: Principal): Promise<CsatSetting> {
  guard(p);
  return csatSettingOf(p.customerId);
}

const templateProblem = (message: string) =>
  new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "body.template", message }] });

/** Changes what the body gives; a template must be one of the account's, APPROVED, of category UTILITY. Audited. */
export async function setCsatSetting(p: Principal, body: CsatSettingBody): Promise<CsatSetting> {
  guard(p);
  if (body.template) {
    const t = await db.template.findFirst({
      where: { customerId: p.customerId, name: body.template.name, language: body.template.language },
      select: { category: true, status: true },
    });
    if (!t) throw templateProblem(`no template ${body.template.name} (${body.template.language}) in this account`);
    if (t.category.toUpperCase() !== "UTILITY") {
      throw templateProblem(`template ${body.template.name} is ${t.category}: the survey needs a UTILITY template`);
    }
    // The provider sends only approved templates: a pending one would fail every survey outside the window.
    if (t.status !== "APPROVED") {
      throw templateProblem(`template ${body.template.name} is ${t.status}: the survey needs an APPROVED template`);
    }
  }
  return db.$transaction(async (tx) => {
    const current = await csatSettingOf(p.customerId, tx);
    const next: CsatSetting = {
      enabled: body.enabled ?? current.enabled,
      question: body.question ?? current.question,
      template: body.template === undefined ? current.template : body.template,
    };
    await tx.customer.update({
      where: { id: p.customerId },
      data: { csat: next as unknown as Prisma.InputJsonValue },
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "csat.updated",
      target: { type: "account", uid: p.customerId },
      details: {
        enabled: next.enabled,
        template: next.template ? `${next.template.name}:${next.template.language}` : null,
      },
    });
    return next;
  });
}

export type PersonClose = {
  customerId: string;
  conversationId: string;
  closedAt: Date;
  /** The closing member; null: a close through the API. */
  member: { userId: string; email: string } | null;
};

/**
 * A person closed a conversation (in the close's transaction, after recordClose): with CSAT
 * on, the period just resolved gets its one survey and the job that sends it. True when one
 * was scheduled.
 */
export async function askCsatAtClose(tx: Tx, close: PersonClose): Promise<boolean> {
  const setting = await csatSettingOf(close.customerId, tx);
  if (!setting.enabled) return false;
  const period = await tx.supportPeriod.findFirst({
    where: { conversationId: close.conversationId, customerId: close.customerId, resolvedAt: close.closedAt },
    select: { id: true, senderId: true },
  });
  // No period: the contact never wrote since the last close; there is nothing to rate.
  if (!period) return false;
  const id = newId("csat_");
  const inserted = await tx.$executeRaw`
    INSERT INTO "CsatSurvey" ("id", "customerId", "senderId", "conversationId", "periodId", "memberUserId",
      "memberEmail", "closedAt")
    VALUES (${id}, ${close.customerId}, ${period.senderId}, ${close.conversationId}, ${period.id},
      ${close.member?.userId ?? null}, ${close.member?.email ?? null}, ${close.closedAt.toISOString()}::timestamp(3))
    ON CONFLICT ("periodId") DO NOTHING`;
  if (inserted === 0) return false;
  await scheduleJobs(tx, [
    {
      customerId: close.customerId,
      kind: CSAT_JOB_KIND,
      key: `${CSAT_JOB_KIND}:${period.id}`,
      subjectId: close.conversationId,
      dueAt: close.closedAt,
      payload: { surveyId: id },
    },
  ]);
  return true;
}

/** The account's UTILITY templates, the choices of the settings form. */
export async function csatTemplateChoices(p: Principal): Promise<{ name: string; language: string; status: string }[]> {
  guard(p);
  return db.template.findMany({
    where: { customerId: p.customerId, category: { equals: "UTILITY", mode: "insensitive" } },
    select: { name: true, language: true, status: true },
    orderBy: [{ name: "asc" }, { language: "asc" }],
    take: 200,
  });
}

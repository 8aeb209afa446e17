// The CSAT answers (docs/reports.md "CSAT"): GET /reports/csat's list, newest first, by the
// (customerId, respondedAt) index, the score the support report shows per group, and a
// conversation's answer for the inbox thread.
import { db } from "@/lib/db";
import { assertPermission } from "@/lib/domains/auth/access";
import { allowedSenderIds, type Principal } from "@/lib/domains/auth/principal";
import type { Sender } from "@/lib/domains/senders/service";
import type { Prisma } from "@/lib/generated/prisma/client";
import { CSAT_ANSWERS, type CsatFigures, type CsatListInput, type CsatResponse } from "./csat-schemas";

/** Answers and the percent of them that were happy (one decimal), null without answers. */
export function csatFigures(responses: number, satisfied: number): CsatFigures {
  return { responses, score: responses > 0 ? Math.round((satisfied / responses) * 1000) / 10 : null };
}

const DAY_MS = 86_400_000;

export async function listCsatResponses(
  p: Principal,
  sender: Sender | undefined,
  q: CsatListInput,
): Promise<{ responses: CsatResponse[]; total: number }> {
  if (p.member) assertPermission(p, "reports");
  const respondedAt: Prisma.DateTimeNullableFilter = { not: null };
  if (q.dateFrom) respondedAt.gte = new Date(`${q.dateFrom}T00:00:00Z`);
  if (q.dateTo) respondedAt.lt = new Date(Date.parse(`${q.dateTo}T00:00:00Z`) + DAY_MS);
  const where: Prisma.CsatSurveyWhereInput = {
    customerId: p.customerId,
    ...(sender ? { senderId: sender.id } : {}),
    score: { not: null },
    respondedAt,
    ...(q.memberId === undefined
      ? {}
      : q.memberId.toLowerCase() === "api"
        ? { memberEmail: null }
        : { memberEmail: q.memberId.toLowerCase() }),
  };
  const [rows, total] = await Promise.all([
    db.csatSurvey.findMany({
      where,
      orderBy: [{ respondedAt: "desc" }, { id: "desc" }],
      skip: (q.page - 1) * q.limit,
      take: q.limit,
      include: { conversation: { select: { contactPhoneNumber: true, sender: { select: { phoneNumber: true } } } } },
    }),
    db.csatSurvey.count({ where }),
  ]);
  return {
    responses: rows.map((r) => ({
      conversationUid: r.conversationId,
      memberId: r.memberEmail,
      score: r.score ?? 0,
      comment: r.comment,
      at: (r.respondedAt ?? r.closedAt).toISOString(),
      contactPhoneNumber: r.conversation.contactPhoneNumber,
      senderId: r.conversation.sender.phoneNumber,
    })),
    total,
  };
}

/** The contact's latest CSAT answer in a conversation, as the inbox thread shows it. */
export type ThreadCsat = { score: number; answer: string; comment: string | null; at: string };

/**
 * The conversation's latest answered survey (docs/reports.md "CSAT"), for the inbox thread:
 * checked as the thread is (the `inbox` permission, the member's senders), by the
 * (conversationId, closedAt) index. Null when the contact never answered.
 */
export async function threadCsat(p: Principal, conversationUid: string): Promise<ThreadCsat | null> {
  if (p.member) assertPermission(p, "inbox");
  const senders = allowedSenderIds(p);
  const row = await db.csatSurvey.findFirst({
    where: {
      customerId: p.customerId,
      conversationId: conversationUid,
      ...(senders === null ? {} : { senderId: { in: [...senders] } }),
      score: { not: null },
    },
    orderBy: [{ closedAt: "desc" }, { id: "desc" }],
    select: { score: true, comment: true, respondedAt: true, closedAt: true },
  });
  if (!row || row.score === null) return null;
  const answer = CSAT_ANSWERS.find((a) => a.score === row.score)?.title ?? String(row.score);
  return { score: row.score, answer, comment: row.comment, at: (row.respondedAt ?? row.closedAt).toISOString() };
}

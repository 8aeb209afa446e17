// A contact's answer to a CSAT survey (docs/reports.md "CSAT"), in the inbound batch's
// transaction (lib/domains/conversations/inbound.ts): a tap on one of the survey's buttons
// (an interactive button_reply whose id is the survey's, or a quick reply on the survey's
// template) stores the score once and emits conversation.csat_received once; the contact's
// next text within 10 minutes of the tap is its comment. Both are answers, not a new
// request: the caller leaves the conversation closed, opens no support period, and no
// chatbot or rule sees them.
import type { Tx } from "@/lib/db";
import type { EventInput, EventSender } from "@/lib/domains/events/emit";
import { Prisma } from "@/lib/generated/prisma/client";
import { CSAT_ANSWERS } from "./csat-schemas";
import { ConversationCsatReceived } from "./event-types";

/** How long after a tap the contact's next text is taken as the comment. */
const COMMENT_MS = 10 * 60_000;

export type InboundForCsat = {
  /** The provider message id. */
  id: string;
  sender: EventSender;
  conversationId: string;
  contact: string;
  contactName: string | null;
  type: string;
  body: Record<string, unknown>;
  at: Date;
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === "string" ? v : null);

const BUTTON_ID = /^csat:(csat_[0-9a-z]{1,64}):([1-3])$/;

/** The survey and score a tap on our reply buttons names, if it is one. */
function csatButtonOf(m: Pick<InboundForCsat, "type" | "body">): { surveyId: string; score: number } | null {
  if (m.type !== "interactive") return null;
  const reply = obj(obj(m.body.interactive).button_reply);
  const match = BUTTON_ID.exec(str(reply.id) ?? "");
  return match ? { surveyId: match[1] ?? "", score: Number(match[2]) } : null;
}

/**
 * A template quick reply's score: its payload or text starting with 1-3 or with one of the
 * three faces, or naming an answer ("Happy").
 */
function quickReplyScore(m: Pick<InboundForCsat, "type" | "body">): number | null {
  if (m.type !== "button") return null;
  const button = obj(m.body.button);
  for (const raw of [str(button.payload), str(button.text)]) {
    const text = raw?.trim() ?? "";
    if (/^[1-3](\D|$)/.test(text)) return Number(text[0]);
    for (const a of CSAT_ANSWERS) {
      const [face, word] = a.title.split(" ");
      if ((face && text.startsWith(face)) || (word && text.toLowerCase() === word.toLowerCase())) return a.score;
    }
  }
  return null;
}

const quotedId = (body: Obj) => str(obj(body.context).id);

type Answered = {
  id: string;
  conversationId: string;
  memberEmail: string | null;
  score: number;
  respondedAt: Date;
};

/**
 * Applies the batch's answers; returns the provider ids of the messages that were answers
 * (taps on a survey of their conversation, replayed or not, and comments) and the events of
 * the scores stored now.
 */
export async function applyCsatReplies(
  tx: Tx,
  messages: readonly InboundForCsat[],
): Promise<{ answers: Set<string>; events: EventInput[] }> {
  const answers = new Set<string>();
  const events: EventInput[] = [];
  const ordered = [...messages].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const m of ordered) {
    const button = csatButtonOf(m);
    const quick = button ? null : quickReplyScore(m);
    const quoted = quick !== null ? quotedId(m.body) : null;
    if (!button && !quoted) continue;
    const score = button?.score ?? quick ?? 0;
    // The survey of this conversation the tap names: by its id, or by the template message quoted.
    const which = button
      ? Prisma.sql`s."id" = ${button.surveyId}`
      : Prisma.sql`s."messageId" = (SELECT x."id" FROM "Message" x
          WHERE x."providerMessageId" = ${quoted} AND x."customerId" = ${m.sender.customerId})`;
    const found = await tx.$queryRaw<{ id: string }[]>`
      SELECT s."id" FROM "CsatSurvey" s
      WHERE s."conversationId" = ${m.conversationId} AND s."customerId" = ${m.sender.customerId}
        AND s."status" = 'SENT' AND ${which}
      LIMIT 1`;
    const survey = found[0];
    if (!survey) continue;
    answers.add(m.id);
    const stored = await tx.$queryRaw<Answered[]>`
      UPDATE "CsatSurvey" SET "score" = ${score}, "respondedAt" = ${m.at.toISOString()}::timestamp(3)
      WHERE "id" = ${survey.id} AND "score" IS NULL
      RETURNING "id", "conversationId", "memberEmail", "score", "respondedAt"`;
    const row = stored[0];
    if (!row) continue;
    events.push(
      ConversationCsatReceived.of({
        sender: m.sender,
        dedupeKey: `conversation.csat_received:${row.id}`,
        createdAt: m.at,
        data: {
          conversationUid: row.conversationId,
          contactPhoneNumber: m.contact,
          contactName: m.contactName,
          score: row.score,
          memberId: row.memberEmail,
          respondedAt: new Date(row.respondedAt).toISOString(),
        },
      }),
    );
  }
  // Comments: per conversation, the first text of the batch not already an answer, within
  // 10 minutes after a tap whose survey has no comment yet. Provider times are whole seconds
  // (a message processed late keeps its second), so a text of the tap's second counts.
  const firstText = new Map<string, InboundForCsat>();
  for (const m of ordered) {
    if (m.type !== "text" || answers.has(m.id) || firstText.has(m.conversationId)) continue;
    firstText.set(m.conversationId, m);
  }
  const texts = [...firstText.values()];
  if (texts.length > 0) {
    const commented = await tx.$queryRawUnsafe<{ conv: string }[]>(
      `UPDATE "CsatSurvey" AS s SET "comment" = t.body
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(conv, customer, body, at)
       WHERE s."conversationId" = t.conv AND s."customerId" = t.customer AND s."comment" IS NULL
         AND s."respondedAt" IS NOT NULL AND s."respondedAt" < t.at::timestamp(3) + interval '1 second'
         AND s."respondedAt" > t.at::timestamp(3) - ($5 * interval '1 millisecond')
       RETURNING t.conv`,
      texts.map((m) => m.conversationId),
      texts.map((m) => m.sender.customerId),
      texts.map((m) => (str(obj(m.body.text).body) ?? "").slice(0, 4096)),
      texts.map((m) => m.at.toISOString()),
      COMMENT_MS,
    );
    const done = new Set(commented.map((c) => c.conv));
    for (const m of texts) if (done.has(m.conversationId)) answers.add(m.id);
  }
  return { answers, events };
}

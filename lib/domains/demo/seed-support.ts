// The demo's support history (docs/reports.md "The demo's history"), so the Reports page, its
// heatmap and the CSAT page show something real at first start: the conversations of
// support-history.ts written in bulk (one statement per table), their periods replayed
// through the support module's own statements (lib/domains/support/periods.ts, a batch of
// steps at a time: each conversation's first step, then each one's second, ...) so every
// figure is what the live path would have written, the SLA breaches of the VIP policy as the
// SLA timers find them (missedTargets), and the CSAT surveys of the member's closes with the
// contacts' answers. Once per account: an account that has the history keeps it.

import { labelKey } from "@/lib/core/label-key";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import type { BusinessHours } from "@/lib/domains/business-hours/hours";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { previewOf } from "@/lib/domains/conversations/content";
import { newConversationUid, newThreadMessageUid } from "@/lib/domains/conversations/ids";
import { newMessageUid } from "@/lib/domains/messaging/outgoing";
import { WINDOW_MS } from "@/lib/domains/provider/service-window";
import { missedTargets, pendingDues } from "@/lib/domains/sla/timers";
import {
  type InboundArrival,
  recordCloses,
  recordHandoffs,
  recordInbound,
  recordPersonReplies,
} from "@/lib/domains/support/periods";
import { Prisma, type Sender, type SlaPolicy } from "@/lib/generated/prisma/client";
import { DEMO_EMAIL } from "./constants";
import { DEMO_CHATBOT_NAME } from "./seed-chatbots";
import { HISTORY_PREFIX, type HistoryConversation, type HistoryStep, supportHistory } from "./support-history";

/** The demo's SLA policy: VIP conversations (the VIP label) get an answer within the hour and a close within a day. */
export const DEMO_SLA_POLICY = {
  name: "VIP support",
  firstResponseMinutes: 60,
  nextResponseMinutes: 60,
  resolutionMinutes: 24 * 60,
  labels: ["VIP"],
} as const;

/** The policy, created once per account (an account that has policies keeps its own). */
async function ensureSlaPolicy(customerId: string): Promise<SlaPolicy | null> {
  if ((await db.slaPolicy.count({ where: { customerId } })) === 0) {
    await db.slaPolicy.create({
      data: {
        id: newId("sla_"),
        customerId,
        position: 0,
        name: DEMO_SLA_POLICY.name,
        firstResponseMinutes: DEMO_SLA_POLICY.firstResponseMinutes,
        nextResponseMinutes: DEMO_SLA_POLICY.nextResponseMinutes,
        resolutionMinutes: DEMO_SLA_POLICY.resolutionMinutes,
        businessHoursOnly: false,
        senderIds: [],
        labels: [...DEMO_SLA_POLICY.labels],
      },
    });
  }
  return db.slaPolicy.findFirst({ where: { customerId, name: DEMO_SLA_POLICY.name } });
}

/**
 * The demo's business hours: weekdays 09:00-17:00 UTC, set before the history is replayed so its
 * figures carry their business-hours variants (docs/reports.md "Business hours"); an account
 * that set its own keeps them.
 */
const DEMO_BUSINESS_HOURS: BusinessHours = {
  timezone: "UTC",
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" })),
  holidays: [],
};

async function ensureBusinessHours(customerId: string): Promise<void> {
  await db.customer.updateMany({
    where: { id: customerId, businessHours: { equals: Prisma.AnyNull } },
    data: { businessHours: DEMO_BUSINESS_HOURS },
  });
}

type Written = HistoryConversation & { id: string; sender: Sender };

// One statement per table, the rows as one JSON parameter (as the billing seed does): a
// thousand rows of many columns are far cheaper so than as bound parameters.
const INSERT_CONVERSATIONS = `
INSERT INTO "Conversation" ("id", "customerId", "senderId", "contactPhoneNumber", "contactName", "status",
  "lastMessageAt", "lastInboundAt", "windowExpiresAt", "lastMessagePreview", "closedAt", "slaPolicyId",
  "createdAt", "updatedAt")
SELECT x.id, $2, x.sender, x.contact, x.name, 'CLOSED', x.last::timestamp(3), x.lastin::timestamp(3),
  x.win::timestamp(3), x.preview, x.closed::timestamp(3), x.policy, x.created::timestamp(3), x.closed::timestamp(3)
FROM json_to_recordset($1::json) AS x(id text, sender text, contact text, name text, last text, lastin text,
  win text, preview text, closed text, policy text, created text)`;

const INSERT_MESSAGES = `
INSERT INTO "Message" ("id", "customerId", "senderId", "providerMessageId", "recipient", "type", "pricingCategory",
  "sendRoute", "status", "payload", "createdAt", "updatedAt")
SELECT x.id, $2, x.sender, x.wamid, x.contact, 'text', 'service', 'chat', 'read',
  jsonb_build_object('messaging_product', 'whatsapp', 'recipient_type', 'individual', 'to', substr(x.contact, 2),
    'type', 'text', 'text', jsonb_build_object('body', x.body)),
  x.at::timestamp(3), x.at::timestamp(3)
FROM json_to_recordset($1::json) AS x(id text, sender text, wamid text, contact text, body text, at text)`;

const INSERT_THREAD = `
INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "content",
  "providerMessageId", "messageId", "sentBy", "sentByLabel", "createdAt")
SELECT x.id, $2, x.conv, x.dir, 'text',
  CASE WHEN x.dir = 'inbound' THEN jsonb_build_object('text', jsonb_build_object('body', x.body)) END,
  x.wamid, x.msg, x.who, x.label, x.at::timestamp(3)
FROM json_to_recordset($1::json) AS x(id text, conv text, dir text, body text, wamid text, msg text, who text,
  label text, at text)`;

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** The conversations, their thread (and the outbound Message rows it points at) and labels: one statement per table. */
async function writeConversations(tx: Tx, customerId: string, list: Written[], policy: SlaPolicy | null) {
  const vip = (c: Written) => c.labels.some((l) => labelKey(l) === "vip");
  const conversations = list.map((c) => {
    const last = c.messages[c.messages.length - 1];
    const lastIn = c.messages.filter((m) => m.kind === "in").at(-1)?.at ?? null;
    return {
      id: c.id,
      sender: c.sender.id,
      contact: c.contact,
      name: c.name,
      last: iso(last?.at ?? c.closedAt),
      lastin: iso(lastIn),
      win: lastIn ? iso(new Date(lastIn.getTime() + WINDOW_MS)) : null,
      preview: last ? previewOf("text", { text: { body: last.text } }) : "",
      closed: iso(c.closedAt),
      policy: policy && vip(c) ? policy.id : null,
      created: iso(c.messages[0]?.at ?? c.closedAt),
    };
  });
  await tx.$executeRawUnsafe(INSERT_CONVERSATIONS, JSON.stringify(conversations), customerId);
  const messages: object[] = [];
  const thread: object[] = [];
  let n = 0;
  for (const c of list) {
    for (const m of c.messages) {
      n += 1;
      const at = iso(m.at);
      if (m.kind === "in") {
        const wamid = `wamid.demo.history.in.${n}`;
        thread.push({
          id: newThreadMessageUid(),
          conv: c.id,
          dir: "inbound",
          body: m.text,
          wamid,
          who: "contact",
          label: c.name,
          at,
        });
        continue;
      }
      const id = newMessageUid();
      messages.push({
        id,
        sender: c.sender.id,
        wamid: `wamid.demo.history.out.${n}`,
        contact: c.contact,
        body: m.text,
        at,
      });
      const person = m.kind === "reply" ? m.by : null;
      thread.push({
        id,
        conv: c.id,
        dir: "outbound",
        msg: id,
        who: m.kind === "bot" ? "chatbot" : person === "api" ? "api" : "dashboard",
        label: m.kind === "bot" ? DEMO_CHATBOT_NAME : person === "api" ? null : person,
        at,
      });
    }
  }
  await tx.$executeRawUnsafe(INSERT_MESSAGES, JSON.stringify(messages), customerId);
  await tx.$executeRawUnsafe(INSERT_THREAD, JSON.stringify(thread), customerId);
  const labels = await tx.label.findMany({ where: { customerId }, select: { id: true, nameKey: true } });
  const labelId = new Map(labels.map((l) => [l.nameKey, l.id]));
  await tx.conversationLabel.createMany({
    data: list.flatMap((c) =>
      c.labels.flatMap((name) => {
        const id = labelId.get(labelKey(name));
        return id ? [{ conversationId: c.id, labelId: id, customerId }] : [];
      }),
    ),
    skipDuplicates: true,
  });
}

/** Each conversation's steps through periods.ts, the k-th step of every conversation in one batch per kind. */
async function replay(tx: Tx, customerId: string, list: Written[]): Promise<void> {
  const longest = Math.max(0, ...list.map((c) => c.steps.length));
  for (let k = 0; k < longest; k++) {
    const wave = list.flatMap((c) => {
      const step = c.steps[k];
      return step ? [{ c, step }] : [];
    });
    const of = <K extends HistoryStep["kind"]>(kind: K) =>
      wave.flatMap(({ c, step }) =>
        step.kind === kind ? [{ c, step: step as Extract<HistoryStep, { kind: K }> }] : [],
      );
    const arrivals: InboundArrival[] = of("inbound").map(({ c, step }) => ({
      conversationId: c.id,
      customerId,
      senderId: c.sender.id,
      at: step.at,
      count: step.count,
    }));
    await recordInbound(tx, arrivals);
    await recordHandoffs(
      tx,
      of("handoff").map(({ c, step }) => ({ conversationId: c.id, at: step.at })),
    );
    await recordPersonReplies(
      tx,
      of("reply").map(({ c, step }) => ({ conversationId: c.id, at: step.at, responder: step.by })),
    );
    await recordCloses(
      tx,
      of("close").map(({ c, step }) => ({
        conversationId: c.id,
        at: step.at,
        closedBy: step.by === "api" ? null : step.by,
      })),
    );
  }
}

/** The VIP periods' missed targets, as the SLA timers record them when due (breachedAt: the due time, the timer's). */
async function writeBreaches(tx: Tx, customerId: string, list: Written[], policy: SlaPolicy, now: Date) {
  const covered = list.filter((c) => c.labels.some((l) => labelKey(l) === "vip"));
  const periods = await tx.supportPeriod.findMany({ where: { conversationId: { in: covered.map((c) => c.id) } } });
  const responses = await tx.supportResponse.findMany({
    where: { periodId: { in: periods.map((p) => p.id) } },
    select: { periodId: true, first: true, waitedFrom: true, respondedAt: true },
  });
  const hours = policy.businessHoursOnly ? await businessHoursOf(customerId, tx) : null;
  await tx.slaBreach.createMany({
    data: periods.flatMap((p) =>
      missedTargets(
        policy,
        p,
        responses.filter((r) => r.periodId === p.id),
        pendingDues(policy, p, hours),
        hours,
        now,
      ).map((miss) => ({
        id: newId("slab_"),
        customerId,
        senderId: p.senderId,
        conversationId: p.conversationId,
        periodId: p.id,
        policyId: policy.id,
        target: miss.target,
        key: miss.key,
        dueAt: miss.dueAt,
        breachedAt: miss.dueAt,
      })),
    ),
    skipDuplicates: true,
  });
}

/** A survey for each of the member's closes inside the window, with the contact's answer when there is one. */
async function writeSurveys(tx: Tx, customerId: string, list: Written[]) {
  const member = await tx.user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  const periods = await tx.supportPeriod.findMany({
    where: { conversationId: { in: list.map((c) => c.id) }, closedBy: DEMO_EMAIL },
    select: { id: true, conversationId: true, senderId: true, resolvedAt: true },
  });
  const byId = new Map(list.map((c) => [c.id, c]));
  await tx.csatSurvey.createMany({
    data: periods.flatMap((p) => {
      const c = byId.get(p.conversationId);
      const closedAt = p.resolvedAt;
      if (!c || !closedAt) return [];
      const lastIn = c.messages.filter((m) => m.kind === "in" && m.at <= closedAt).at(-1)?.at;
      // Outside the window the survey needs a template, which the demo has not chosen: no survey.
      if (!lastIn || closedAt.getTime() - lastIn.getTime() >= WINDOW_MS) return [];
      const answer = c.answers.find((a) => a.closedAt.getTime() === closedAt.getTime());
      return [
        {
          id: newId("csat_"),
          customerId,
          senderId: p.senderId,
          conversationId: p.conversationId,
          periodId: p.id,
          memberUserId: member?.id ?? null,
          memberEmail: DEMO_EMAIL,
          closedAt,
          status: "SENT",
          channel: "buttons",
          score: answer?.score ?? null,
          comment: answer?.comment ?? null,
          respondedAt: answer?.at ?? null,
          createdAt: closedAt,
        },
      ];
    }),
  });
}

/** Seeds the history once; returns how many conversations it wrote. */
export async function seedSupportHistory(customerId: string, senders: Sender[], now: Date): Promise<number> {
  const exists = await db.conversation.count({
    where: { customerId, contactPhoneNumber: { startsWith: HISTORY_PREFIX } },
  });
  if (exists > 0) return 0;
  await ensureBusinessHours(customerId);
  const policy = await ensureSlaPolicy(customerId);
  const list: Written[] = supportHistory(now, DEMO_EMAIL).flatMap((c) => {
    const sender = senders[c.senderIndex];
    return sender?.phoneNumberId ? [{ ...c, id: newConversationUid(), sender }] : [];
  });
  await db.$transaction(
    async (tx) => {
      await writeConversations(tx, customerId, list, policy);
      await replay(tx, customerId, list);
      if (policy) await writeBreaches(tx, customerId, list, policy, now);
      await writeSurveys(tx, customerId, list);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  return list.length;
}

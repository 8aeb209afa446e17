// The send actions of a run (docs/automation.md "The window is known", "Chatbots first"): each
// is a scheduled job written with its run, sent through the normal send pipeline (blacklist,
// balance, templates, provider limits) as the rule's. The message id derives from the job, and
// the pipeline stores the message before calling the provider, so a job claimed again after a
// crash finds what the first claim did and never sends twice. Outside the customer service
// window a send_text is no failed send: it is skipped (window_closed) or its fallbackTemplate
// goes instead. While a chatbot owns the conversation the send waits (checked again each
// minute) until it hands off, or the window closes.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { HANDOFF_MS } from "@/lib/domains/chatbots/engine";
import { wentOut } from "@/lib/domains/messages/status";
import { sendMessage } from "@/lib/domains/messaging/send";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import type { ClaimedJob, JobOutcome } from "@/lib/domains/schedule/jobs";
import { lastCloseOf } from "@/lib/domains/support/last-close";
import { PERSON_REPLY_WHERE } from "@/lib/domains/support/person-reply";
import type { Prisma } from "@/lib/generated/prisma/client";
import { runOutcome } from "./actions";
import type { Action, ActionOutcome } from "./schemas";

type SendPayload = {
  runId: string;
  index: number;
  conversationId: string;
  ruleName: string;
  action: Extract<Action, { type: "send_text" | "send_template" }>;
  /** Its run left the conversation closed (its own close, or one it found): the send never reopens it (actions.ts closedWith). */
  keepsClosed?: boolean;
};

/** How often a send waiting for a chatbot to hand off looks again. */
export const CHATBOT_WAIT_MS = 60_000;
const TRANSIENT = new Set(["PROVIDER_RATE_LIMITED", "REQUEST_FAILED"]);

/** Writes one action's outcome into its run and the run's outcome from all of them. */
export async function recordActionOutcome(runId: string, index: number, outcome: ActionOutcome): Promise<void> {
  await db.$transaction(async (tx) => {
    const [run] = await tx.$queryRaw<{ actions: ActionOutcome[] }[]>`
      SELECT actions FROM "AutomationRun" WHERE id = ${runId} FOR UPDATE`;
    if (!run) return;
    const actions = [...run.actions];
    actions[index] = outcome;
    await tx.automationRun.update({
      where: { id: runId },
      data: { actions: actions as unknown as Prisma.InputJsonValue, outcome: runOutcome(actions) },
    });
  });
}

/**
 * A chatbot owns the conversation: its sender has an ACTIVE bot, no hand-off waits and no person
 * answered lately, since its last close (a close ends a person's hold, as the bot's guard reads it:
 * docs/chatbots.md "Guards").
 */
async function chatbotOwns(c: { id: string; senderId: string; handoffAt: Date | null }): Promise<boolean> {
  if (c.handoffAt) return false;
  const bot = await db.chatbot.findFirst({
    where: { activeSenderId: c.senderId, status: "ACTIVE" },
    select: { id: true },
  });
  if (!bot) return false;
  const lately = Date.now() - HANDOFF_MS;
  const closed = (await lastCloseOf(db, c.id))?.getTime() ?? lately;
  const person = await db.conversationMessage.findFirst({
    where: {
      conversationId: c.id,
      ...PERSON_REPLY_WHERE,
      createdAt: lately >= closed ? { gte: new Date(lately) } : { gt: new Date(closed) },
    },
    select: { id: true },
  });
  return person === null;
}

type Contact = { phone: string; name: string | null; fields: Record<string, string> };

function variableValue(
  v: { source: string; key?: string; value?: string; default?: string },
  contact: Contact,
): string {
  const raw =
    v.source === "constant"
      ? (v.value ?? "")
      : v.source === "phoneNumber"
        ? contact.phone
        : v.source === "name"
          ? (contact.name ?? contact.fields.name ?? "")
          : v.source === "email"
            ? (contact.fields.email ?? "")
            : (contact.fields[v.key ?? ""] ?? "");
  return raw.trim() !== "" ? raw.trim() : (v.default ?? "");
}

function templateMessage(
  template: { name: string; language: string },
  variables: { body: Parameters<typeof variableValue>[0][]; header: Parameters<typeof variableValue>[0][] } | null,
  contact: Contact,
): ProviderMessagePayload {
  const components: Record<string, unknown>[] = [];
  const params = (list: Parameters<typeof variableValue>[0][]) =>
    list.map((v) => ({ type: "text", text: variableValue(v, contact) }));
  if (variables?.header.length) components.push({ type: "header", parameters: params(variables.header) });
  if (variables?.body.length) components.push({ type: "body", parameters: params(variables.body) });
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: contact.phone.replace(/^\+/, ""),
    type: "template",
    template: {
      name: template.name,
      language: { code: template.language },
      ...(components.length ? { components } : {}),
    },
  } as ProviderMessagePayload;
}

async function contactOf(customerId: string, phone: string, name: string | null): Promise<Contact> {
  const rows = await db.contact.findMany({
    where: { customerId, phoneNumber: phone },
    orderBy: { updatedAt: "asc" },
    select: { name: true, email: true, customFields: true },
    take: 20,
  });
  const fields: Record<string, string> = {};
  for (const r of rows) {
    if (r.name) fields.name = r.name;
    if (r.email) fields.email = r.email;
    for (const [k, v] of Object.entries((r.customFields ?? {}) as Record<string, unknown>)) {
      if (v !== null && v !== undefined) fields[k] = String(v);
    }
  }
  return { phone, name, fields };
}

export async function handleSendJob(job: ClaimedJob): Promise<JobOutcome> {
  const p = job.payload as unknown as SendPayload;
  const type = p.action.type;
  const finish = async (outcome: ActionOutcome["outcome"], reason: string | null): Promise<JobOutcome> => {
    await recordActionOutcome(p.runId, p.index, { type, outcome, reason });
    return { status: "DONE" };
  };
  const messageId = `msg_${job.id}`;
  // A claim after a crash: what the first one did stands.
  const earlier = await db.message.findUnique({
    where: { id: messageId },
    select: { status: true, providerMessageId: true },
  });
  if (earlier) {
    return wentOut(earlier)
      ? finish("done", messageId)
      : finish("failed", `interrupted: the provider may have it (message ${earlier.status}); not resent`);
  }
  const c = await db.conversation.findFirst({ where: { id: p.conversationId, customerId: job.customerId } });
  if (!c) return finish("failed", "the conversation is gone");
  const sender = await db.sender.findFirst({ where: { id: c.senderId, customerId: job.customerId } });
  if (!sender) return finish("failed", "the sender is gone");
  const windowOpen = c.windowExpiresAt !== null && c.windowExpiresAt.getTime() > Date.now();
  if (await chatbotOwns(c)) {
    if (!windowOpen) return finish("skipped", "chatbot_owns: a chatbot kept the conversation until the window closed");
    await recordActionOutcome(p.runId, p.index, {
      type,
      outcome: "pending",
      reason: "waiting: a chatbot owns the conversation",
    });
    return { status: "PENDING", dueAt: new Date(Date.now() + CHATBOT_WAIT_MS) };
  }
  const contact = await contactOf(c.customerId, c.contactPhoneNumber, c.contactName);
  // Its run left the conversation closed (closed, snoozed, or found it closed): the send never
  // reopens it, as a send otherwise does (docs/conversations.md). Whoever reopened it since
  // keeps it open, and whoever closed it again keeps it closed: a late answer undoes neither.
  const keepsClosed = p.keepsClosed === true;
  const action = p.action;
  const fallback = action.type === "send_text" ? action.fallbackTemplate : undefined;
  const send = async (payload: ProviderMessagePayload, template?: { name: string; language: string }) =>
    sendMessage(systemPrincipal(c.customerId, c.senderId), sender, {
      sendRoute: "automation",
      recipient: c.contactPhoneNumber,
      messageId,
      sentBy: { by: "automation", label: p.ruleName, keepsClosed },
      payload,
      ...(template ? { template } : {}),
    });
  const sendFallback = async () => {
    if (!fallback) return finish("skipped", "window_closed");
    await send(templateMessage(fallback, null, contact), fallback);
    return finish("done", `window_closed: sent the fallback template ${fallback.name}`);
  };
  try {
    if (action.type === "send_template") {
      await send(templateMessage(action.template, action.variables, contact), action.template);
      return finish("done", messageId);
    }
    if (!windowOpen) return await sendFallback();
    try {
      await send({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: c.contactPhoneNumber.replace(/^\+/, ""),
        type: "text",
        text: { body: action.text, preview_url: false },
      } as ProviderMessagePayload);
      return finish("done", messageId);
    } catch (error) {
      // The window closed between the read and the send.
      if (error instanceof ApiError && error.code === "CUSTOMER_SERVICE_WINDOW_CLOSED") return await sendFallback();
      throw error;
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (TRANSIENT.has(error.code) && job.attempts < 5) {
      return { status: "PENDING", dueAt: new Date(Date.now() + 2_000 * job.attempts), error: error.code };
    }
    return finish("failed", `${error.code}: ${error.message}`);
  }
}

/** A snoozed conversation opens again, unless something reopened or closed it since. */
export async function handleReopenJob(job: ClaimedJob): Promise<JobOutcome> {
  const p = job.payload as { conversationId: string; closedAt: string };
  await db.conversation.updateMany({
    where: { id: p.conversationId, customerId: job.customerId, status: "CLOSED", closedAt: new Date(p.closedAt) },
    data: { status: "OPEN", closedAt: null },
  });
  return { status: "DONE" };
}

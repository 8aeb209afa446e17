// One send, whatever the route: checks (sender connection, blacklist, template, balance),
// stores the message, then hands it to the provider, or parks it in the reconnect queue
// while the sender is RECONNECTING. Returns an acceptance receipt, not a delivery receipt.
// The row is written ("sending") BEFORE the provider call and completed after it: a row
// that cannot be written stops the send before anything left, and once the provider
// accepted, the receipt is the answer whatever the completion meets (message-store.ts).
import { randomBytes } from "node:crypto";
import { storableValue } from "@/lib/core/storable-text";
import { db } from "@/lib/db";
import { notifyStatement } from "@/lib/db/wakeups";
import type { Principal } from "@/lib/domains/auth/principal";
import { isBlacklisted } from "@/lib/domains/contacts/blacklist";
import type { SentBy } from "@/lib/domains/conversations/outbound";
import { windowRefusal } from "@/lib/domains/conversations/window";
import { TEMPLATE_NOT_FOUND, UNDELIVERABLE } from "@/lib/domains/provider/error-codes";
import type { ProviderMessagePayload, ProviderSender } from "@/lib/domains/provider/types";
import type { Sender } from "@/lib/domains/senders/service";
import { assertTemplateParameters } from "@/lib/domains/templates/parameters";
import type { Message, Template } from "@/lib/generated/prisma/client";
import { emitAccepted } from "./accepted-event";
import { assertCanAfford, recentBalance } from "./balance";
import { directSendComponents, directSendTemplate } from "./direct-send";
import { callProvider, outcomeColumns, refusalError } from "./dispatch";
import { MessagingError } from "./errors";
import { completeMessage, insertMessage, SENDING } from "./message-store";
import type { DirectSendCategory, SendRoute } from "./schemas";

export type OutgoingMessage = {
  sendRoute: SendRoute;
  /** E.164 */
  recipient: string;
  /** The provider body (for Direct Send, the text message that becomes a template message). */
  payload: ProviderMessagePayload;
  /** Set for template sends: must exist and be APPROVED. */
  template?: { name: string; language: string };
  directSend?: { category: DirectSendCategory; ttlSeconds?: number; text: string };
  /** A caller-chosen local id (a chatbot reply derives it from its outbox row to notice a resend). */
  messageId?: string;
  /** Shown in the conversation; default: dashboard for a session, else api. */
  sentBy?: SentBy;
};

export type SendResult = { message: Message; queued: boolean; template: Template | null };

export const newMessageUid = () => `msg_${randomBytes(12).toString("hex")}`;

export function providerSender(sender: Sender): ProviderSender {
  return { phoneNumberId: sender.phoneNumberId ?? "", phoneNumber: sender.phoneNumber, wabaId: sender.wabaId };
}

export async function sendMessage(p: Principal, sender: Sender, out: OutgoingMessage): Promise<SendResult> {
  if (sender.connectionStatus === "DISCONNECTED") {
    throw new MessagingError(
      "SENDER_DISCONNECTED",
      `Sender ${sender.phoneNumber} is disconnected; reconnect it to send`,
    );
  }
  // The balance read starts beside the other checks; it is only awaited for paid categories.
  const balance = recentBalance(p.customerId);
  balance.catch(() => {});
  const [blocked, template, windowClosed] = await Promise.all([
    isBlacklisted(p.customerId, sender.id, out.recipient),
    out.directSend
      ? directSendTemplate(p.customerId, sender, out.directSend.category)
      : out.template
        ? approvedTemplate(p.customerId, out.template.name, out.template.language)
        : Promise.resolve(null),
    windowRefusal(p.customerId, sender.id, out.recipient, out),
  ]);
  // The template step: its parameters must fit the template (the provider refuses a mismatch).
  if (template && !out.directSend) assertTemplateParameters(template, templateComponentsOf(out.payload));
  if (blocked) {
    throw new MessagingError(
      "RECIPIENT_BLACKLISTED",
      `${out.recipient} is on the blacklist of sender ${sender.phoneNumber}`,
      {
        recipient: out.recipient,
        providerCode: UNDELIVERABLE,
      },
    );
  }
  if (windowClosed) throw windowClosed;
  const pricingCategory = out.directSend?.category ?? template?.category.toLowerCase() ?? "service";
  await assertCanAfford(p.customerId, pricingCategory, balance);

  let payload = out.payload;
  if (out.directSend && template) {
    payload = {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: out.payload.to,
      type: "template",
      template: {
        name: template.name,
        language: { code: template.language },
        components: directSendComponents(out.directSend.text),
      },
    };
  }
  // Text the database cannot store (a lone surrogate, NUL) leaves as U+FFFD, the same
  // bytes as the stored row (the input schemas refuse it in the first place).
  payload = storableValue(payload).value;
  const queued = sender.connectionStatus === "RECONNECTING";
  const id = out.messageId ?? newMessageUid();
  const row = await insertMessage(
    {
      id,
      customerId: p.customerId,
      senderId: sender.id,
      recipient: out.recipient,
      type: out.directSend ? "text" : out.payload.type,
      templateName: template?.name ?? null,
      templateLanguage: template?.language ?? null,
      pricingCategory,
      sendRoute: out.sendRoute,
      directSendCategory: out.directSend?.category ?? null,
      directSendTemplateName: out.directSend ? (template?.name ?? null) : null,
      ttlSeconds: out.directSend?.ttlSeconds ?? null,
      metaTemplateId: template?.providerTemplateId ?? null,
      payload,
      ...(queued ? { status: "queued", queued: true } : { status: SENDING, queued: false }),
    },
    { sender, sentBy: out.sentBy ?? { by: p.via === "session" ? "dashboard" : "api" } },
  );
  if (queued) {
    // The row is committed: a drainer elsewhere wakes in case the sender reconnected meanwhile.
    await db.$executeRaw(notifyStatement("reconnect"));
    return { message: row, queued, template };
  }
  let call: Awaited<ReturnType<typeof callProvider>>;
  try {
    call = await callProvider(providerSender(sender), payload, pricingCategory);
  } catch (error) {
    // Whether it reached the provider is not known (docs/api/errors.md "When to retry").
    await completeMessage(row, {
      status: "unknown",
      queued: false,
      attempts: 1,
      errorMessage: String((error as Error)?.message ?? error).slice(0, 500),
    });
    throw error;
  }
  const message = await completeMessage(row, outcomeColumns(call));
  if (!call.ok) throw refusalError(call.refusal, id, call.attempts);
  await emitAccepted(message, providerSender(sender));
  return { message, queued, template };
}

/** The components a template payload sends (none: an empty list). */
function templateComponentsOf(payload: ProviderMessagePayload): unknown {
  const t = payload.template as { components?: unknown } | undefined;
  return t?.components ?? [];
}

// Found templates are remembered for two seconds (a status change applies within that);
// a miss is always re-read, so a new template is usable at once.
const TEMPLATE_TTL_MS = 2_000;
const templates = new Map<string, { at: number; template: Template }>();

async function findTemplate(customerId: string, name: string, language: string): Promise<Template | null> {
  const key = `${customerId}|${name}|${language}`;
  const hit = templates.get(key);
  if (hit && Date.now() - hit.at < TEMPLATE_TTL_MS) return hit.template;
  const template = await db.template.findFirst({ where: { customerId, name, language } });
  if (templates.size > 10_000) templates.clear();
  if (template) templates.set(key, { at: Date.now(), template });
  else templates.delete(key);
  return template;
}

async function approvedTemplate(customerId: string, name: string, language: string): Promise<Template> {
  const template = await findTemplate(customerId, name, language);
  if (!template) {
    throw new MessagingError("TEMPLATE_NOT_FOUND", `Template ${name} (${language}) does not exist`, {
      template: name,
      language,
      providerCode: TEMPLATE_NOT_FOUND,
    });
  }
  if (template.status !== "APPROVED") {
    throw new MessagingError(
      "TEMPLATE_NOT_APPROVED",
      `Template ${name} (${language}) is ${template.status}, not APPROVED`,
      {
        template: name,
        language,
        status: template.status,
        providerCode: 132015,
      },
    );
  }
  return template;
}

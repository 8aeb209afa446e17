// Running chatbots, part 2 (docs/chatbots.md "How a reply is sent"): the worker claims due
// outbox rows under a lease and sends each through the normal send path (sendMessage:
// blacklist, balance, templates, provider limits, the reconnect queue), marked as the bot's.
// Each attempt's local message id derives from its outbox row and claim, and sendMessage
// stores the message before calling the provider: a worker that re-claims a row finds
// what earlier holders did. Sent: the row is SENT without sending again. Interrupted
// mid-call ("sending" or "unknown"): FAILED, never resent (the provider may have it).
// Refused ("failed", e.g. a rate limit): sent again under a new id.

import { retryDelayMs } from "@/lib/core/backoff";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { startWorker, type WorkerDefinition, type WorkerSleep } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { wakeupsOn } from "@/lib/db/wakeups";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { onDeliveriesQueued } from "@/lib/domains/events/signal";
import { wentOut } from "@/lib/domains/messages/status";
import { providerSendLeaseMs } from "@/lib/domains/messaging/dispatch";
import type { OutgoingMessage } from "@/lib/domains/messaging/outgoing";
import { chatPayload } from "@/lib/domains/messaging/payloads";
import { sendMessage } from "@/lib/domains/messaging/send";
import type { Reply } from "./engine";
import { type ClaimedReply, claimReplies, finishReply, type ReplyOutcome } from "./outbox";

export type ChatbotWorkerOptions = {
  pollMs?: number;
  batchSize?: number;
  /** How long a claim holds a row; a worker that dies lets it go after this (default: providerSendLeaseMs()). */
  leaseMs?: number;
  retryBaseMs?: number;
  /** Only these customers' replies (isolated tests). */
  customerIds?: string[] | null;
  /** Told of each retry a pass schedules (the loop wakes for it rather than wait for the poll). */
  onRetryScheduled?: (delayMs: number) => void;
  /** The loop's sleep (default: woken by NOTIFY on "chatbots"); a test gives one nothing else wakes. */
  sleep?: WorkerSleep;
};

/** Claims beyond this are given up (FAILED), so a reply that keeps failing stops. */
export const MAX_CLAIMS = 5;
/** A reply older than the customer service window is no longer worth sending. */
const MAX_AGE_MS = 24 * 60 * 60_000;
// Refusals that a later attempt may not meet again.
const TRANSIENT = new Set(["PROVIDER_RATE_LIMITED", "REQUEST_FAILED"]);

export const replyMessageId = (outboxId: string, claim: number) => `msg_${outboxId}_${claim}`;

/** What earlier claims of this row left behind, or null when nothing can have reached the contact. */
async function earlierAttempt(outboxId: string): Promise<ReplyOutcome | null> {
  const rows = await db.message.findMany({
    where: { id: { startsWith: `msg_${outboxId}_` } },
    select: { id: true, status: true, providerMessageId: true },
  });
  const sent = rows.find(wentOut);
  if (sent) return { status: "SENT", messageId: sent.id };
  const unsure = rows.find((r) => r.status !== "failed");
  if (unsure) {
    return {
      status: "FAILED",
      messageId: unsure.id,
      error: `interrupted: the provider may have it (message ${unsure.status}); not resent`,
    };
  }
  return null;
}

function outgoing(reply: Reply, to: string, messageId: string, botName: string): OutgoingMessage {
  const sentBy = { by: "chatbot" as const, label: botName };
  const base = {
    messaging_product: "whatsapp" as const,
    recipient_type: "individual" as const,
    to: to.replace(/^\+/, ""),
  };
  if (reply.type === "text") {
    return {
      sendRoute: "chatbot",
      recipient: to,
      messageId,
      sentBy,
      payload: { ...base, type: "text", text: { body: reply.text } },
    };
  }
  // Buttons, a list or a link: the provider's interactive object as /chat builds it (a
  // session message: the send's window check applies as to text).
  if (reply.type !== "template") {
    const payload = chatPayload({ to, type: reply.type, interactive: reply.interactive });
    return { sendRoute: "chatbot", recipient: to, messageId, sentBy, payload };
  }
  const { name, language, components } = reply.template;
  return {
    sendRoute: "chatbot",
    recipient: to,
    messageId,
    sentBy,
    template: { name, language },
    payload: {
      ...base,
      type: "template",
      template: { name, language: { code: language }, ...(components?.length ? { components } : {}) },
    },
  };
}

/** Sends one claimed reply and says what became of it (the caller records it). */
export async function deliverReply(row: ClaimedReply, retryBaseMs = 1_000): Promise<ReplyOutcome> {
  const messageId = replyMessageId(row.id, row.attempts);
  const earlier = row.attempts > 1 ? await earlierAttempt(row.id) : null;
  if (earlier) return earlier;
  if (Date.now() - new Date(row.createdAt).getTime() > MAX_AGE_MS) {
    return { status: "FAILED", messageId: null, error: "expired: older than the customer service window" };
  }
  const sender = await db.sender.findFirst({ where: { id: row.senderId, customerId: row.customerId } });
  if (!sender) return { status: "FAILED", messageId: null, error: "the sender is gone" };
  // The bot acts for its customer, on its own sender only.
  const principal = systemPrincipal(row.customerId, sender.id);
  try {
    const { message } = await sendMessage(
      principal,
      sender,
      outgoing(row.reply as Reply, row.contactPhoneNumber, messageId, row.chatbotName),
    );
    return { status: "SENT", messageId: message.id };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const text = `${error.code}: ${error.message}`;
    if (TRANSIENT.has(error.code) && row.attempts < MAX_CLAIMS) {
      return {
        status: "PENDING",
        error: text,
        delayMs: Math.max(retryBaseMs, retryDelayMs(row.attempts, retryBaseMs * 4, 60_000)),
      };
    }
    // A refusal after the provider call leaves the message row behind (status failed).
    const stored = await db.message.findUnique({ where: { id: messageId }, select: { id: true } });
    return { status: "FAILED", messageId: stored?.id ?? null, error: text };
  }
}

/** One pass: claims due replies and sends them; returns how many were claimed. */
export async function sendDueReplies(options: ChatbotWorkerOptions = {}): Promise<number> {
  const rows = await claimReplies(
    options.batchSize ?? 20,
    options.leaseMs ?? providerSendLeaseMs(),
    options.customerIds ?? null,
  );
  // Settled, not Promise.all: every row's retry is reported before the pass ends, even when one row fails.
  const done = await Promise.allSettled(
    rows.map(async (row) => {
      let outcome: ReplyOutcome;
      try {
        outcome = await deliverReply(row, options.retryBaseMs ?? 1_000);
      } catch (error) {
        log.error({ err: error, replyId: row.id }, "chatbot reply failed unexpectedly");
        const failed = row.attempts >= MAX_CLAIMS;
        outcome = failed
          ? { status: "FAILED", messageId: null, error: "internal error" }
          : { status: "PENDING", error: "internal error", delayMs: options.retryBaseMs ?? 1_000 };
      }
      if (!(await finishReply(row, outcome))) log.warn({ replyId: row.id }, "chatbot reply lease lost");
      else if (outcome.status === "PENDING") options.onRetryScheduled?.(outcome.delayMs);
    }),
  );
  const failed = done.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return rows.length;
}

/** The background loop: woken after inbound callbacks commit (in process, or NOTIFY), else a slow safety poll. */
export function startChatbotWorker(options: ChatbotWorkerOptions = {}): { stop: () => Promise<void> } {
  return startWorker(chatbotWorker(options));
}

/** The chatbot worker as a definition for the worker loop (lib/background.ts). */
export function chatbotWorker(options: ChatbotWorkerOptions = {}): WorkerDefinition {
  const batchSize = options.batchSize ?? 20;
  // The earliest retry this worker scheduled: it wakes for it instead of waiting for the poll.
  let retryAt = Number.POSITIVE_INFINITY;
  const onRetryScheduled = (delayMs: number) => {
    retryAt = Math.min(retryAt, Date.now() + delayMs);
    options.onRetryScheduled?.(delayMs);
  };
  return {
    name: "chatbot worker",
    wakeOn: [wakeupsOn("chatbots"), onDeliveriesQueued],
    sleep: options.sleep,
    pollMs: options.pollMs ?? Math.max(250, env().WORKER_POLL_MS),
    pass: async () => {
      if (retryAt <= Date.now()) retryAt = Number.POSITIVE_INFINITY;
      const claimed = await sendDueReplies({ ...options, batchSize, onRetryScheduled });
      return claimed >= batchSize ? { more: true } : { more: false, sleepMs: retryAt - Date.now() };
    },
  };
}

// Hands a message to the provider. Throughput signals (130429, 131057) are retried here
// with exponential backoff and full jitter, never sooner than the provider's Retry-After (one
// longer than a second goes back to the caller); the provider refused those requests, so a
// retry cannot create a duplicate. The pair limit (131056) needs seconds to clear and goes back to
// the client as a 429 with Retry-After. An ambiguous outcome is never resent.

import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import type { CreatedConversation } from "@/lib/domains/conversations/outbound";
import type { LiveEvent } from "@/lib/domains/live/events";
import { providerMediaIdFor } from "@/lib/domains/media/provider-media";
import { withProviderMediaId } from "@/lib/domains/media/send-media";
import type { OutcomeColumns } from "@/lib/domains/messages/rows";
import { getProvider } from "@/lib/domains/provider/client";
import { PAIR_RATE_LIMIT } from "@/lib/domains/provider/error-codes";
import type { ProviderMessagePayload, ProviderRefused, ProviderSender } from "@/lib/domains/provider/types";
import type { Message } from "@/lib/generated/prisma/client";
import { emitAccepted } from "./accepted-event";
import { MessagingError } from "./errors";
import { completeMessage } from "./message-store";

export const MAX_ATTEMPTS = 4;

/**
 * How long a worker's claim of a send must hold: every provider attempt timing out, plus the
 * margin, so that no second worker takes the row while its send may still be in flight.
 */
export function providerSendLeaseMs(): number {
  const e = env();
  return MAX_ATTEMPTS * e.PROVIDER_TIMEOUT_MS + e.WORKER_LEASE_MARGIN_MS;
}
const BASE_DELAY_MS = 200;
const PAIR_RETRY_AFTER_SECONDS = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Full jitter over an exponential ceiling, never below a quarter of the base. */
export const backoffMs = (attempt: number) => BASE_DELAY_MS / 4 + Math.random() * BASE_DELAY_MS * 2 ** (attempt - 1);

export type ProviderCall =
  | { ok: true; providerMessageId: string; attempts: number }
  | { ok: false; refusal: ProviderRefused; attempts: number };

/** The longest Retry-After a send waits out itself before retrying; a longer one goes back to its caller. */
const MAX_RETRY_AFTER_WAIT_MS = 1_000;

/**
 * The wait before retrying a refusal, or null to give it back: never sooner than the
 * provider's Retry-After (a retry inside the window it counts would only be refused again).
 */
export function retryWaitMs(outcome: ProviderRefused, attempts: number, throughputRetries = true): number | null {
  if (!outcome.retryable || outcome.ambiguous || outcome.code === PAIR_RATE_LIMIT || attempts >= MAX_ATTEMPTS)
    return null;
  if (outcome.retryAfterSeconds === undefined) return backoffMs(attempts);
  if (!throughputRetries) return null;
  const wait = Math.max(backoffMs(attempts), outcome.retryAfterSeconds * 1000);
  return wait > MAX_RETRY_AFTER_WAIT_MS ? null : wait;
}

/** Calls the provider, retrying throughput signals; never throws for a refusal. */
export async function callProvider(
  sender: ProviderSender,
  payload: ProviderMessagePayload,
  pricingCategory: string | null,
  options: Pick<DispatchOptions, "atCall" | "throughputRetries"> = {},
): Promise<ProviderCall> {
  const provider = getProvider();
  let attempts = 0;
  for (;;) {
    attempts += 1;
    await options.atCall?.();
    const outcome = await provider.sendMessage(sender, payload, { pricingCategory });
    if (outcome.ok) return { ok: true, providerMessageId: outcome.messageId, attempts };
    const wait = retryWaitMs(outcome, attempts, options.throughputRetries);
    if (wait === null) return { ok: false, refusal: outcome, attempts };
    await sleep(wait);
  }
}

/** The columns a provider outcome sets on the message. */
export function outcomeColumns(result: ProviderCall) {
  if (result.ok) {
    return {
      providerMessageId: result.providerMessageId,
      status: "accepted",
      queued: false,
      attempts: result.attempts,
    };
  }
  const r = result.refusal;
  return {
    status: r.ambiguous ? "unknown" : "failed",
    queued: false,
    attempts: result.attempts,
    errorCode: r.code || null,
    errorMessage: r.message.slice(0, 500),
  };
}

export type DispatchOptions = {
  /** false: the caller emits message.status.accepted itself, for a whole batch (emitAcceptedBatch). */
  announce?: boolean;
  /** Collects the live notices for the caller to publish with its batch's (message-store.ts ThreadContext.live). */
  live?: LiveEvent[];
  /** Collects the conversations the sends created, for the caller to announce with its batch's (ThreadContext.created). */
  created?: CreatedConversation[];
  /**
   * Awaited right before each provider call (retries too): the broadcast dispatcher holds the
   * call to its send slot (lib/domains/senders/rate-bucket.ts).
   */
  atCall?: () => Promise<void>;
  /**
   * false: a throughput refusal with a Retry-After comes back at once (the broadcast
   * dispatcher queues the recipient again after it) instead of being waited out here.
   */
  throughputRetries?: boolean;
};

/**
 * The dispatch stage of the send pipeline (send.ts): hands a recorded message (status
 * "sending": a direct send's fresh row, or one the reconnect queue claimed) to the provider,
 * completes its row with the outcome (message-store.ts) and announces an accepted one
 * (message.status.accepted). A call that throws leaves the row "unknown": whether it reached
 * the provider is not known (docs/messaging.md "Write, call, complete").
 */
export async function dispatchRecorded(
  message: Message,
  sender: ProviderSender,
  options: DispatchOptions = {},
): Promise<Message> {
  const call = await callRecorded(message, sender, options);
  if (!call.result) {
    await completeMessage(message, call.columns);
    throw call.error;
  }
  const updated = await completeMessage(message, call.columns, options.live);
  if (!call.result.ok) throw refusalError(call.result.refusal, message.id, call.result.attempts);
  if (options.announce !== false) await emitAccepted(updated, sender);
  return updated;
}

/**
 * A recorded message's provider call and the columns its outcome sets, not yet written: a batch
 * writes its outcomes together (completeMessages). A call that threw (`error`) is "unknown":
 * whether it reached the provider is not known.
 */
export async function callRecorded(
  message: Message,
  sender: ProviderSender,
  options: Pick<DispatchOptions, "atCall" | "throughputRetries"> = {},
): Promise<
  { result: ProviderCall; columns: OutcomeColumns } | { result: null; error: unknown; columns: OutcomeColumns }
> {
  try {
    const payload = await payloadForProvider(message, sender);
    const result: ProviderCall = payload.ok
      ? await callProvider(sender, payload.payload, message.pricingCategory, options)
      : { ok: false, refusal: payload.refusal, attempts: 1 };
    return { result, columns: outcomeColumns(result) };
  } catch (error) {
    const errorMessage = String((error as Error)?.message ?? error).slice(0, 500);
    return { result: null, error, columns: { status: "unknown", queued: false, attempts: 1, errorMessage } };
  }
}

/**
 * The body the provider gets: the stored one, or for a send by mediaId the same with the
 * provider's id of the file for this sender (uploaded once and cached, lib/domains/media); an
 * upload the provider refuses is the send's refusal (the message fails, nothing was sent).
 */
async function payloadForProvider(
  message: Message,
  sender: ProviderSender,
): Promise<{ ok: true; payload: ProviderMessagePayload } | { ok: false; refusal: ProviderRefused }> {
  const payload = message.payload as unknown as ProviderMessagePayload;
  if (!message.mediaId) return { ok: true, payload };
  const uploaded = await providerMediaIdFor(message.customerId, sender, message.mediaId);
  if (!uploaded.ok) return { ok: false, refusal: uploaded };
  return { ok: true, payload: withProviderMediaId(payload, uploaded.id) };
}

/** The Retry-After a refusal gives back to its caller (refusalError's header); none for one not to retry. */
export function retryAfterSeconds(r: ProviderRefused): number | undefined {
  if (r.ambiguous || !r.retryable) return undefined;
  return r.retryAfterSeconds ?? (r.code === PAIR_RATE_LIMIT ? PAIR_RETRY_AFTER_SECONDS : 1);
}

export function refusalError(r: ProviderRefused, messageUid: string, attempts: number): MessagingError {
  const details = { messageUid, providerCode: r.code || null, attempts };
  if (r.ambiguous) {
    log.warn({ messageUid, error: r.message }, "ambiguous provider outcome");
    return new MessagingError(
      "PROVIDER_UNAVAILABLE",
      "The provider did not confirm the message; read the message report before resending",
      details,
    );
  }
  const retryAfter = retryAfterSeconds(r);
  if (retryAfter !== undefined) {
    return new MessagingError(
      "PROVIDER_RATE_LIMITED",
      `${r.message}; the message was not sent, retry after ${retryAfter} s`,
      { ...details, retryAfterSeconds: retryAfter },
      { "Retry-After": String(retryAfter) },
    );
  }
  return new MessagingError("PROVIDER_REJECTED", r.message, details);
}

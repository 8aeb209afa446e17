// The built-in provider: accepts sends with provider-style ids (wamid.*), answers the
// throughput limits with the provider's error codes, and afterwards posts signed status
// callbacks (sent, delivered, read with pricing by category; a share fails) to our own
// provider webhook. The default whenever no provider credentials are configured.
import { randomBytes } from "node:crypto";
import { env } from "@/lib/core/env";
import {
  CODE_TITLES,
  isRetryableCode,
  MARKETING_CAP,
  MESSAGING_LIMIT_HIT,
  numericId,
  PAIR_RATE_LIMIT,
  THROUGHPUT_EXCEEDED,
  UNDELIVERABLE,
  WINDOW_CLOSED,
} from "./error-codes";
import { SAMPLE_TEMPLATE_NAME, sampleTemplate } from "./sample-template";
import { isFreeFormPayload } from "./service-window";
import { answerChange, CONTACT_REPLIES, chooseAnswer } from "./simulator-answers";
import { type CallbackChange, deliverCallback, envelopeFor } from "./simulator-callbacks";
import { inboundTextChange, messagesChange } from "./simulator-inbound";
import { SimulatorLimits } from "./simulator-limits";
import { simulatedMediaDownloads } from "./simulator-media";
import { reviewTemplate } from "./simulator-review";
import { templateComponentsFor } from "./simulator-templates";
import { MEDIA_UPLOAD_ERROR, type SimulatedUpload, SimulatorUploads } from "./simulator-uploads";
import { windowOpenForNumber } from "./simulator-window";
import { findParameterProblem } from "./template-parameters";
import type {
  ProviderClient,
  ProviderMediaDescription,
  ProviderMessagePayload,
  ProviderReadOutcome,
  ProviderSender,
  ProviderSendOutcome,
  ProviderTemplate,
  ProviderTemplateInput,
  ProviderUpload,
  ProviderUploadOutcome,
  SendHints,
} from "./types";

export type SimulatorOptions = {
  throughputPerSecond: number;
  statusDelayMs: number;
  failureRate: number;
  readRate: number;
  /** Share of delivered messages the simulated contact answers (a signed inbound callback). */
  replyRate: number;
  /** The messaging limit of an account whose sender carries none (unique contacts per 24 h). */
  messagingLimit: number;
  /** Share of marketing template sends that fail with 131049. */
  marketingCapRate: number;
  /** Share of the contacts' answers that are a photo (simulator-media.ts serves it); none when unset. */
  imageReplyRate?: number;
  /** Share of the answers to buttons or a list that tap one or pick a row (simulator-answers.ts); none when unset. */
  tapRate?: number;
  /** Share of the other answers that react to the message; none when unset. */
  reactionRate?: number;
  /** Share of the text answers that quote the message; none when unset. */
  quoteRate?: number;
};

export type SimulatedMessage = {
  messageId: string;
  phoneNumberId: string;
  to: string;
  type: string;
  category: string;
  /** The uploads the message named (its media, a template's header): what reached the phone. */
  media?: SimulatedUpload[];
};

/** A mark-as-read the "provider" received, with the typing indicator or not. */
export type SimulatedRead = { phoneNumberId: string; messageId: string; typing: boolean; at: number };

const FLUSH_MS = 25;
const BATCH = 100;

export function simulatorOptionsFromEnv(): SimulatorOptions {
  const e = env();
  return {
    throughputPerSecond: e.SIMULATOR_THROUGHPUT_PER_SECOND,
    statusDelayMs: e.SIMULATOR_STATUS_DELAY_MS,
    failureRate: e.SIMULATOR_FAILURE_RATE,
    readRate: e.SIMULATOR_READ_RATE,
    replyRate: e.SIMULATOR_REPLY_RATE,
    messagingLimit: e.SIMULATOR_MESSAGING_LIMIT,
    marketingCapRate: e.SIMULATOR_MARKETING_CAP_RATE,
    imageReplyRate: e.SIMULATOR_IMAGE_REPLY_RATE,
    tapRate: e.SIMULATOR_TAP_RATE,
    reactionRate: e.SIMULATOR_REACTION_RATE,
    quoteRate: e.SIMULATOR_QUOTE_RATE,
  };
}

const wamid = () => `wamid.${randomBytes(24).toString("base64url")}`;
const jitter = (ms: number) => Math.round(ms * (0.7 + Math.random() * 0.6));
const unixNow = () => String(Math.floor(Date.now() / 1000));

export class ProviderSimulator implements ProviderClient {
  readonly kind = "simulator" as const;
  readonly limits: SimulatorLimits;
  /** Accepted messages, newest last (bounded): what the "provider" really received. */
  readonly accepted: SimulatedMessage[] = [];
  /** Mark-as-read calls, newest last (bounded): the contact's blue ticks and typing indicators. */
  readonly reads: SimulatedRead[] = [];
  /** Media uploaded to the "provider" (POST /{phoneNumberId}/media), by provider media id. */
  readonly uploads = new SimulatorUploads();
  private readonly faults = new Map<string, number[]>();
  private readonly forced = new Map<string, "failed" | "read" | "delivered">();
  private readonly templates = new Map<string, ProviderTemplate[]>();
  private pending: CallbackChange[] = [];
  /** Test hook (failDownloads): how many of the next download attempts of a media id fail. */
  private readonly downloadFaults = new Map<string, number>();
  private readonly media = simulatedMediaDownloads(this.downloadFaults);
  private flushTimer: NodeJS.Timeout | undefined;

  /** No real numbers here: in simulator mode the service assigns ids (lib/domains/onboarding/connect-sender.ts). */
  async phoneNumberOf(_phoneNumberId: string): Promise<string | null> {
    return null;
  }

  constructor(public options: SimulatorOptions = simulatorOptionsFromEnv()) {
    this.limits = new SimulatorLimits(options.throughputPerSecond);
  }

  /** Test hook: the next sends from this number are refused with these provider codes, in order. */
  injectErrors(phoneNumberId: string, codes: number[]): void {
    this.faults.set(phoneNumberId, [...(this.faults.get(phoneNumberId) ?? []), ...codes]);
  }

  /** The provider's `GET /{mediaId}` of a file a simulated contact sent (simulator-media.ts). */
  describeMedia(sender: ProviderSender, mediaId: string): Promise<ProviderMediaDescription> {
    return this.media.describeMedia(sender, mediaId);
  }

  /** The bytes behind a description's url. */
  downloadMedia(sender: ProviderSender, url: string): Promise<AsyncIterable<Uint8Array>> {
    return this.media.downloadMedia(sender, url);
  }

  /** Test hook: the next `times` attempts to fetch this media id fail as a provider outage would. */
  failDownloads(mediaId: string, times: number): void {
    this.downloadFaults.set(mediaId, times);
  }

  /** Test hook: messages to this recipient end in the given status instead of a random one. */
  forceOutcome(recipient: string, outcome: "failed" | "read" | "delivered" | undefined): void {
    const key = recipient.replace(/^\+/, "");
    if (outcome) this.forced.set(key, outcome);
    else this.forced.delete(key);
  }

  /** The provider's mark-as-read (and typing indicator): recorded; an injected fault refuses it. */
  async markRead(
    sender: ProviderSender,
    messageId: string,
    options: { typing?: boolean } = {},
  ): Promise<ProviderReadOutcome> {
    const injected = this.faults.get(sender.phoneNumberId)?.shift();
    if (injected !== undefined) return refusal(injected);
    this.reads.push({
      phoneNumberId: sender.phoneNumberId,
      messageId,
      typing: options.typing === true,
      at: Date.now(),
    });
    if (this.reads.length > 20_000) this.reads.splice(0, 10_000);
    return { ok: true };
  }

  acceptedTo(recipient: string): SimulatedMessage[] {
    const to = recipient.replace(/^\+/, "");
    return this.accepted.filter((m) => m.to === to);
  }

  async sendMessage(
    sender: ProviderSender,
    payload: ProviderMessagePayload,
    hints: SendHints = {},
  ): Promise<ProviderSendOutcome> {
    const to = payload.to.replace(/^\+/, "");
    const injected = this.faults.get(sender.phoneNumberId)?.shift();
    if (injected !== undefined) return refusal(injected);
    const mismatch = await this.parameterRefusal(sender, payload);
    if (mismatch) return mismatch;
    const named = this.uploads.named(sender, payload);
    if (named.unknown)
      return refusal(MEDIA_UPLOAD_ERROR, `Media upload error: no media ${named.unknown} for this number`);
    const freeForm = isFreeFormPayload(payload);
    const category = (hints.pricingCategory ?? "service").toLowerCase();
    const verdict = this.limits.check(sender.phoneNumberId, to, {
      marketing: payload.type === "template" && category === "marketing",
      throughput: sender.throughputPerSecond,
    });
    if (verdict === "throughput") {
      return refusal(THROUGHPUT_EXCEEDED, undefined, this.limits.retryAfterSeconds(sender.phoneNumberId));
    }
    if (verdict === "pair") return refusal(PAIR_RATE_LIMIT);

    // Like the provider, a free-form message outside the customer service window is
    // accepted and then fails with 131047 (docs/conversations.md); a business-initiated one
    // past the account's messaging limit is accepted and then fails with 131048.
    const outsideWindow = freeForm && !(await windowOpenForNumber(sender.phoneNumberId, `+${to}`));
    // A reaction is neither: it answers a message of the contact's conversation.
    const overLimit = !freeForm && payload.type !== "reaction" && !(await this.reachAllowed(sender, to));
    const messageId = wamid();
    const media = named.media.length > 0 ? { media: named.media } : {};
    this.accepted.push({ messageId, phoneNumberId: sender.phoneNumberId, to, type: payload.type, category, ...media });
    if (this.accepted.length > 20_000) this.accepted.splice(0, 10_000);
    const capped = category === "marketing" && Math.random() < this.options.marketingCapRate;
    const failure = outsideWindow
      ? WINDOW_CLOSED
      : overLimit
        ? MESSAGING_LIMIT_HIT
        : capped
          ? MARKETING_CAP
          : undefined;
    this.scheduleStatuses(sender, { messageId, to, category, payload }, failure);
    return { ok: true, messageId, waId: to };
  }

  uploadMedia(sender: ProviderSender, file: ProviderUpload): Promise<ProviderUploadOutcome> {
    return this.uploads.upload(sender, file);
  }

  /** The business account's messaging limit: the sender's tier when it carries one (null = unlimited). */
  messagingLimitOf(sender: ProviderSender): number | null {
    return sender.messagingLimit === undefined ? this.options.messagingLimit : sender.messagingLimit;
  }

  /**
   * Whether a business-initiated message may reach this contact under the account's messaging
   * limit: a contact already counted in the 24 hours, or one whose window with this number is
   * open, costs nothing; a new one counts, unless the account has reached its limit.
   */
  private async reachAllowed(sender: ProviderSender, to: string): Promise<boolean> {
    const limit = this.messagingLimitOf(sender);
    if (limit === null) return true;
    const account = sender.wabaId ?? sender.phoneNumberId;
    if (!this.limits.counted(account, to) && (await windowOpenForNumber(sender.phoneNumberId, `+${to}`))) return true;
    return this.limits.reach(account, to, limit);
  }

  /**
   * Like the provider, a template send whose parameters do not fit the template is refused
   * at once (132000 count, 132012 kind, 131008 a value missing); a template the account does
   * not hold is left to the send path, which refuses it first.
   */
  private async parameterRefusal(
    sender: ProviderSender,
    payload: ProviderMessagePayload,
  ): Promise<ProviderSendOutcome | null> {
    if (payload.type !== "template") return null;
    const t = payload.template as { name?: unknown; language?: { code?: unknown }; components?: unknown } | undefined;
    const name = typeof t?.name === "string" ? t.name : "";
    const language = typeof t?.language?.code === "string" ? t.language.code : "";
    const own = this.templates.get(sender.wabaId ?? "")?.find((x) => x.name === name && x.language === language);
    const sample = name === SAMPLE_TEMPLATE_NAME && sender.wabaId ? sampleTemplate(sender.wabaId) : undefined;
    const components =
      own?.components ??
      (sample?.language === language ? sample.components : null) ??
      (await templateComponentsFor(sender.phoneNumberId, name, language));
    if (!components) return null;
    const problem = findParameterProblem(components, t?.components ?? []);
    if (!problem) return null;
    return refusal(problem.providerCode, `${CODE_TITLES[problem.providerCode]}: ${problem.message}`);
  }

  /** The business account's templates: the provider's approved sample first, then its own. */
  async listTemplates(sender: ProviderSender): Promise<ProviderTemplate[]> {
    const own = this.templates.get(sender.wabaId ?? "") ?? [];
    return sender.wabaId ? [sampleTemplate(sender.wabaId), ...own] : [...own];
  }

  async createTemplate(sender: ProviderSender, input: ProviderTemplateInput): Promise<ProviderTemplate> {
    const created: ProviderTemplate = { ...input, id: numericId(), status: "PENDING" };
    const waba = sender.wabaId ?? "";
    this.templates.set(waba, [...(this.templates.get(waba) ?? []), created]);
    // Review takes a moment; then the provider reports the verdict through a callback.
    const verdict = reviewTemplate(input.components);
    setTimeout(
      () => {
        created.status = verdict.status;
        this.enqueue({
          entryId: waba,
          field: "message_template_status_update",
          value: {
            event: verdict.status,
            message_template_id: created.id,
            message_template_name: created.name,
            message_template_language: created.language,
            ...(verdict.status === "REJECTED"
              ? { reason: verdict.reason, rejection_info: { reason: verdict.detail } }
              : { reason: "NONE" }),
          },
        });
      },
      jitter(this.options.statusDelayMs * 2),
    ).unref();
    return { ...created };
  }

  private scheduleStatuses(
    sender: ProviderSender,
    sent: { messageId: string; to: string; category: string; payload: ProviderMessagePayload },
    failure?: number,
  ): void {
    const { messageId, to, category } = sent;
    const base = this.options.statusDelayMs;
    const forced = this.forced.get(to);
    const fails = forced ? forced === "failed" : Math.random() < this.options.failureRate;
    const reads = forced ? forced === "read" : Math.random() < this.options.readRate;
    const billable = category !== "service";
    const pricing = {
      billable,
      pricing_model: "PMP",
      category,
      type: billable ? "regular" : "free_customer_service",
    };
    const conversation = { id: randomBytes(16).toString("hex"), origin: { type: category } };
    const status = (name: string, extra: Record<string, unknown> = {}) => ({
      id: messageId,
      status: name,
      timestamp: unixNow(),
      recipient_id: to,
      ...extra,
    });
    const at = (ms: number, build: () => Record<string, unknown>) =>
      setTimeout(() => this.enqueueStatus(sender, build()), jitter(ms)).unref();

    if (failure !== undefined || fails) {
      const code = failure ?? UNDELIVERABLE;
      at(base, () =>
        status("failed", {
          errors: [{ code, title: CODE_TITLES[code], message: CODE_TITLES[code] }],
        }),
      );
      return;
    }
    at(base, () => status("sent", { pricing, conversation }));
    at(base * 3, () => status("delivered", { pricing, conversation }));
    if (reads) at(base * 8, () => status("read", { pricing }));
    if (Math.random() < this.options.replyRate) {
      const o = this.options;
      const answer = chooseAnswer(sent.payload, messageId, {
        tapRate: o.tapRate ?? 0,
        reactionRate: o.reactionRate ?? 0,
        imageReplyRate: o.imageReplyRate ?? 0,
        quoteRate: o.quoteRate ?? 0,
      });
      setTimeout(
        () => {
          answerChange(sender, to, messageId, answer).then(
            (change) => this.enqueue(change),
            // A photo that could not be made: the contact writes instead.
            () => this.enqueue(inboundTextChange(sender, { from: to, text: CONTACT_REPLIES[0] ?? "Thanks!" })),
          );
        },
        jitter(base * 12),
      ).unref();
    }
  }

  private enqueueStatus(sender: ProviderSender, statusValue: Record<string, unknown>): void {
    this.enqueue(messagesChange(sender, { statuses: [statusValue] }));
  }

  private enqueue(change: CallbackChange): void {
    this.pending.push(change);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  /** Sends what is due as signed batches (statuses of one number merge into one change). */
  flush(): void {
    this.flushTimer = undefined;
    const due = this.pending;
    this.pending = [];
    const merged: CallbackChange[] = [];
    const byNumber = new Map<string, CallbackChange>();
    for (const change of due) {
      const value = change.value as { metadata?: { phone_number_id?: string }; statuses?: unknown[] };
      // Status-only changes of one number merge; an inbound message travels in its own change.
      const inbound = "messages" in change.value;
      const number = change.field === "messages" && !inbound ? value.metadata?.phone_number_id : undefined;
      const open = number ? byNumber.get(number) : undefined;
      if (open && number) {
        const statuses = (open.value.statuses as unknown[]) ?? [];
        statuses.push(...(value.statuses ?? []));
        if (statuses.length >= BATCH) byNumber.delete(number);
        continue;
      }
      const copy = { ...change, value: { ...change.value, statuses: [...(value.statuses ?? [])] } };
      if (change.field !== "messages" || inbound) delete (copy.value as { statuses?: unknown }).statuses;
      merged.push(copy);
      if (number) byNumber.set(number, copy);
    }
    for (let i = 0; i < merged.length; i += BATCH) void deliverCallback(envelopeFor(merged.slice(i, i + BATCH)));
  }
}

function refusal(code: number, message?: string, retryAfterSeconds?: number): ProviderSendOutcome {
  return {
    ok: false,
    code,
    message: message ?? CODE_TITLES[code] ?? `Provider error ${code}`,
    retryable: isRetryableCode(code),
    ambiguous: false,
    httpStatus: 400,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

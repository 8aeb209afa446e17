// Sends a CSAT survey (docs/reports.md "CSAT"): the scheduled job a person's close wrote
// (lib/domains/support/csat.ts) goes through the normal send pipeline (blacklist, balance,
// template review, the window: billed like any send) as the account's automatic message.
// Inside the customer service window: three reply buttons under the question; outside it: the
// chosen utility template, or nothing (never a session message outside the window). A
// blacklisted contact is never asked. The message id derives from the survey, and the pipeline
// stores the message before calling the provider, so a job claimed again after a crash finds
// what the first claim did and never sends twice. The send leaves the conversation closed.
import { ApiError } from "@/lib/core/errors";
import type { WorkerDefinition } from "@/lib/core/worker-loop";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { isBlacklisted } from "@/lib/domains/contacts/blacklist";
import { wentOut } from "@/lib/domains/messages/status";
import { providerSendLeaseMs } from "@/lib/domains/messaging/dispatch";
import { toProviderInteractive } from "@/lib/domains/messaging/interactive-provider";
import { sendMessage } from "@/lib/domains/messaging/send";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import { type ClaimedJob, type JobOutcome, jobWorker, runDueJobs } from "@/lib/domains/schedule/jobs";
import { CSAT_JOB_KIND, csatSettingOf } from "@/lib/domains/support/csat";
import { CSAT_ANSWERS } from "@/lib/domains/support/csat-schemas";

const TRANSIENT = new Set(["PROVIDER_RATE_LIMITED", "REQUEST_FAILED"]);
const SENT_BY = { by: "automation", label: "CSAT survey", keepsClosed: true } as const;

type Outcome = { status: "SENT" | "SKIPPED" | "FAILED"; reason: string | null; channel?: "buttons" | "template" };

async function finish(surveyId: string, customerId: string, o: Outcome, messageId: string | null): Promise<JobOutcome> {
  await db.csatSurvey.updateMany({
    where: { id: surveyId, customerId, status: "PENDING" },
    data: { status: o.status, reason: o.reason, channel: o.channel ?? null, messageId },
  });
  return { status: "DONE" };
}

/** The reply buttons' payload: the question and the three faces, each id naming the survey and its score. */
function surveyButtons(to: string, surveyId: string, question: string): ProviderMessagePayload {
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: to.replace(/^\+/, ""),
    type: "interactive",
    interactive: toProviderInteractive("buttons", {
      body: question,
      buttons: CSAT_ANSWERS.map((a) => ({ id: `csat:${surveyId}:${a.score}`, title: a.title })),
    }),
  } as ProviderMessagePayload;
}

function templatePayload(to: string, template: { name: string; language: string }): ProviderMessagePayload {
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: to.replace(/^\+/, ""),
    type: "template",
    template: { name: template.name, language: { code: template.language } },
  } as ProviderMessagePayload;
}

export async function handleCsatJob(job: ClaimedJob): Promise<JobOutcome> {
  const surveyId = String((job.payload as { surveyId?: unknown }).surveyId ?? "");
  const survey = await db.csatSurvey.findFirst({
    where: { id: surveyId, customerId: job.customerId, status: "PENDING" },
  });
  if (!survey) return { status: "DONE" };
  const messageId = `msg_${survey.id}`;
  const done = (o: Outcome, sent: string | null = null) => finish(survey.id, job.customerId, o, sent);
  // A claim after a crash: what the first one did stands.
  const earlier = await db.message.findUnique({
    where: { id: messageId },
    select: { status: true, type: true, providerMessageId: true },
  });
  if (earlier) {
    const channel = earlier.type === "template" ? "template" : "buttons";
    return wentOut(earlier)
      ? done({ status: "SENT", reason: null, channel }, messageId)
      : done({ status: "FAILED", reason: `interrupted: not resent (message ${earlier.status})`, channel }, messageId);
  }
  const c = await db.conversation.findFirst({ where: { id: survey.conversationId, customerId: job.customerId } });
  if (!c) return done({ status: "FAILED", reason: "the conversation is gone" });
  const sender = await db.sender.findFirst({ where: { id: c.senderId, customerId: job.customerId } });
  if (!sender) return done({ status: "FAILED", reason: "the sender is gone" });
  if (await isBlacklisted(job.customerId, c.senderId, c.contactPhoneNumber)) {
    return done({ status: "SKIPPED", reason: "blacklisted" });
  }
  const setting = await csatSettingOf(job.customerId);
  if (!setting.enabled) return done({ status: "SKIPPED", reason: "csat_off" });
  const send = (payload: ProviderMessagePayload, template?: { name: string; language: string }) =>
    sendMessage(systemPrincipal(c.customerId, c.senderId), sender, {
      sendRoute: "automation",
      recipient: c.contactPhoneNumber,
      messageId,
      sentBy: SENT_BY,
      payload,
      ...(template ? { template } : {}),
    });
  const viaTemplate = async (): Promise<JobOutcome> => {
    if (!setting.template) return done({ status: "SKIPPED", reason: "window_closed: no template set" });
    await send(templatePayload(c.contactPhoneNumber, setting.template), setting.template);
    return done({ status: "SENT", reason: null, channel: "template" }, messageId);
  };
  try {
    const windowOpen = c.windowExpiresAt !== null && c.windowExpiresAt.getTime() > Date.now();
    if (!windowOpen) return await viaTemplate();
    try {
      await send(surveyButtons(c.contactPhoneNumber, survey.id, setting.question));
      return done({ status: "SENT", reason: null, channel: "buttons" }, messageId);
    } catch (error) {
      // The window closed between the read and the send.
      if (error instanceof ApiError && error.code === "CUSTOMER_SERVICE_WINDOW_CLOSED") return await viaTemplate();
      throw error;
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (TRANSIENT.has(error.code) && job.attempts < 5) {
      return { status: "PENDING", dueAt: new Date(Date.now() + 2_000 * job.attempts), error: error.code };
    }
    return done({ status: "FAILED", reason: `${error.code}: ${error.message}`.slice(0, 500) });
  }
}

type CsatWorkerOptions = { customerIds?: string[] | null; pollMs?: number };

/** The survey sender: the scheduler's job worker over the CSAT job kind (lib/background.ts). */
export function csatWorker(options: CsatWorkerOptions = {}): WorkerDefinition {
  return jobWorker({
    name: "csat worker",
    kinds: [CSAT_JOB_KIND],
    handle: handleCsatJob,
    leaseMs: providerSendLeaseMs(),
    pollMs: options.pollMs,
    customerIds: options.customerIds ?? null,
  });
}

/** One pass over the due surveys (tests drive the worker with it); returns how many were claimed. */
export const runCsatJobs = (options: CsatWorkerOptions = {}) =>
  runDueJobs({
    name: "csat worker",
    kinds: [CSAT_JOB_KIND],
    handle: handleCsatJob,
    leaseMs: providerSendLeaseMs(),
    customerIds: options.customerIds ?? null,
  });

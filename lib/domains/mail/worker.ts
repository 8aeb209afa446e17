// The email worker (docs/email.md): claims due outbox rows under a lease and hands each to
// the transport. A refusal or an unreachable server is retried with exponential backoff
// (full jitter) up to MAX_MAIL_ATTEMPTS, then the email is FAILED (and stays listed with
// its error); the change that queued it is never undone. Woken by NOTIFY on "mail".

import { retryDelayMs } from "@/lib/core/backoff";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { startWorker, type WorkerDefinition, type WorkerSleep } from "@/lib/core/worker-loop";
import { wakeupsOn } from "@/lib/db/wakeups";
import { openBody } from "./message";
import { type ClaimedMail, claimMail, finishMail, type MailOutcome } from "./outbox";
import { type MailTransport, transportFromEnv } from "./transport";

/** Claims of one email before it is given up (about a day with the default backoff). */
export const MAX_MAIL_ATTEMPTS = 10;

export type MailWorkerOptions = {
  transport?: MailTransport;
  pollMs?: number;
  batchSize?: number;
  /** How long a claim holds a row (longer than the transport's timeouts). */
  leaseMs?: number;
  /** First retry delay; doubles per attempt up to maxRetryMs. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** Only these customers' emails (isolated tests). */
  customerIds?: string[] | null;
  /** Told of each retry a pass schedules (the loop wakes for it rather than wait for the poll). */
  onRetryScheduled?: (delayMs: number) => void;
  sleep?: WorkerSleep;
};

/** Hands one claimed email to the transport and says what became of it. */
export async function deliverMail(row: ClaimedMail, transport: MailTransport, options: MailWorkerOptions = {}) {
  const body = openBody(row.body);
  if (!body)
    return { status: "FAILED", error: "the email's body cannot be read (another APP_ENCRYPTION_KEY?)" } as const;
  try {
    const { smtpMessageId } = await transport.send({ id: row.id, to: row.to, subject: row.subject, ...body });
    return transport.kind === "smtp" ? ({ status: "SENT", smtpMessageId } as const) : ({ status: "LOGGED" } as const);
  } catch (error) {
    const text = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (row.attempts >= MAX_MAIL_ATTEMPTS) return { status: "FAILED", error: text } as const;
    const base = options.retryBaseMs ?? 5_000;
    const delayMs = Math.max(base, retryDelayMs(row.attempts, base * 2, options.maxRetryMs ?? 3_600_000));
    return { status: "PENDING", error: text, delayMs } as const;
  }
}

/** One pass: claims due emails and delivers them; returns how many were claimed. */
export async function sendDueMail(options: MailWorkerOptions = {}): Promise<number> {
  const transport = options.transport ?? transportFromEnv();
  const rows = await claimMail(options.batchSize ?? 20, options.leaseMs ?? 120_000, options.customerIds ?? null);
  await Promise.all(
    rows.map(async (row) => {
      let outcome: MailOutcome;
      try {
        outcome = await deliverMail(row, transport, options);
      } catch (error) {
        log.error({ err: error, mailId: row.id }, "email delivery failed unexpectedly");
        outcome = { status: "PENDING", error: "internal error", delayMs: options.retryBaseMs ?? 5_000 };
      }
      if (outcome.status === "FAILED") log.error({ mailId: row.id, error: outcome.error }, "email given up");
      if (!(await finishMail(row, outcome))) log.warn({ mailId: row.id }, "email lease lost");
      else if (outcome.status === "PENDING") {
        log.warn({ mailId: row.id, error: outcome.error, retryInMs: outcome.delayMs }, "email not sent; will retry");
        options.onRetryScheduled?.(outcome.delayMs);
      }
    }),
  );
  return rows.length;
}

/**
 * The background loop: woken by NOTIFY "mail" (queueMail), at the earliest retry it
 * scheduled, else by the safety poll (WORKER_POLL_MS).
 */
export function startMailWorker(options: MailWorkerOptions = {}): { stop: () => Promise<void> } {
  return startWorker(mailWorker(options));
}

/** The email worker as a definition for the worker loop (lib/background.ts). */
export function mailWorker(options: MailWorkerOptions = {}): WorkerDefinition {
  const transport = options.transport ?? transportFromEnv();
  const batchSize = options.batchSize ?? 20;
  let retryAt = Number.POSITIVE_INFINITY;
  const onRetryScheduled = (delayMs: number) => {
    retryAt = Math.min(retryAt, Date.now() + delayMs);
    options.onRetryScheduled?.(delayMs);
  };
  return {
    name: "email worker",
    wakeOn: [wakeupsOn("mail")],
    sleep: options.sleep,
    pollMs: options.pollMs ?? Math.max(250, env().WORKER_POLL_MS),
    pass: async () => {
      if (retryAt <= Date.now()) retryAt = Number.POSITIVE_INFINITY;
      const claimed = await sendDueMail({ ...options, transport, batchSize, onRetryScheduled });
      return claimed >= batchSize ? { more: true } : { more: false, sleepMs: retryAt - Date.now() };
    },
    drain: async () => {
      if (!options.transport) transport.close();
    },
  };
}

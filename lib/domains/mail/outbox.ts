// The email outbox's SQL (docs/email.md): queueing in the caller's transaction (with the
// NOTIFY that wakes the worker, so a rolled-back change sends nothing and a committed one
// is never lost), claiming due rows under a lease (FOR UPDATE SKIP LOCKED: several workers
// never hold one row), and writing an outcome fenced by that lease.
import { randomBytes } from "node:crypto";
import { db, type Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { notifyStatement } from "@/lib/db/wakeups";
import type { MailStatus } from "@/lib/generated/prisma/client";
import { type OutgoingMail, sealBody } from "./message";

export const newMailId = () => `mail_${randomBytes(12).toString("hex")}`;

/** Queues an email inside the transaction of the change it belongs to. */
export async function queueMail(tx: Tx, mail: OutgoingMail): Promise<{ id: string }> {
  const id = newMailId();
  await tx.mailMessage.create({
    data: {
      id,
      customerId: mail.customerId ?? null,
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      body: sealBody({ text: mail.text, html: mail.html }),
    },
  });
  await tx.$executeRaw(notifyStatement("mail"));
  return { id };
}

export type ClaimedMail = {
  id: string;
  to: string;
  subject: string;
  body: string;
  /** Claims so far, this one included. */
  attempts: number;
  lease: string;
};

/** Claims up to `limit` due PENDING emails for `leaseMs`; `customerIds` narrows (isolated tests). */
export async function claimMail(limit: number, leaseMs: number, customerIds: string[] | null): Promise<ClaimedMail[]> {
  const scope = customerIds ? `AND "customerId" = ANY($3::text[])` : "";
  return db.$queryRawUnsafe<ClaimedMail[]>(
    `WITH due AS MATERIALIZED (
       SELECT id FROM "MailMessage"
       WHERE status = 'PENDING' AND "nextAttemptAt" <= ${NOW_UTC}
         AND ("lockedUntil" IS NULL OR "lockedUntil" < ${NOW_UTC}) ${scope}
       ORDER BY "nextAttemptAt" LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE "MailMessage" AS m
     SET "lockedUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond'), attempts = m.attempts + 1, "updatedAt" = ${NOW_UTC}
     FROM due WHERE m.id = due.id
     RETURNING m.id, m."to", m.subject, m.body, m.attempts, m."lockedUntil"::text AS lease`,
    ...(customerIds ? [limit, leaseMs, customerIds] : [limit, leaseMs]),
  );
}

export type MailOutcome =
  | { status: "SENT"; smtpMessageId: string | null }
  | { status: "LOGGED" }
  | { status: "PENDING"; error: string; delayMs: number }
  | { status: "FAILED"; error: string };

/** Records one claim's outcome; false when the lease was lost. A sent email's bodies are emptied. */
export async function finishMail(row: Pick<ClaimedMail, "id" | "lease">, outcome: MailOutcome): Promise<boolean> {
  const sent = outcome.status === "SENT";
  const count = await db.$executeRawUnsafe(
    `UPDATE "MailMessage" SET status = $3::"MailStatus", "lastError" = $4, "smtpMessageId" = $5,
       "sentAt" = CASE WHEN $6 THEN ${NOW_UTC} ELSE "sentAt" END,
       body = CASE WHEN $6 THEN '' ELSE body END,
       "nextAttemptAt" = ${NOW_UTC} + ($7 * interval '1 millisecond'), "lockedUntil" = NULL, "updatedAt" = ${NOW_UTC}
     WHERE id = $1 AND "lockedUntil" = $2::timestamp(3)`,
    row.id,
    row.lease,
    outcome.status,
    outcome.status === "PENDING" || outcome.status === "FAILED" ? outcome.error.slice(0, 500) : null,
    sent ? outcome.smtpMessageId : null,
    sent,
    outcome.status === "PENDING" ? outcome.delayMs : 0,
  );
  return count === 1;
}

export type MailListItem = {
  id: string;
  customerId: string | null;
  kind: string;
  to: string;
  subject: string;
  body: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
};

/** The newest emails first (the operator's `mail:list`), optionally to one address. */
export function listMail(options: { limit: number; to?: string }): Promise<MailListItem[]> {
  return db.mailMessage.findMany({
    where: options.to ? { to: options.to.trim().toLowerCase() } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit,
    select: {
      id: true,
      customerId: true,
      kind: true,
      to: true,
      subject: true,
      body: true,
      status: true,
      attempts: true,
      lastError: true,
      sentAt: true,
      createdAt: true,
    },
  });
}

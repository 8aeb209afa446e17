// Password reset and change (docs/security.md "Password reset"). A reset request always
// answers the same, whether or not the email has an account (no enumeration); the emailed
// link works once, for an hour; using it sets the password and ends every session of that
// member. A signed-in member changes their password with the current one; their other
// sessions end. Both queue a notice in the same transaction.
import { minutesOfWait } from "@/lib/core/count";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { auditContext, memberAuditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import { hashPassword, verifyPassword } from "@/lib/domains/auth/password";
import type { Principal, RequestOrigin } from "@/lib/domains/auth/principal";
import { dashboardLink } from "@/lib/domains/mail/links";
import { queueMail } from "@/lib/domains/mail/outbox";
import { reserveResetRequest } from "./limits";
import { passwordChangedMail, resetLinkMail } from "./notices";
import { hashResetToken, isResetTokenShape, newResetToken, resetPath, resetUsable } from "./reset-token";
import { endSessionsOf } from "./sessions";

/** What every reset request is told (an account or not). */
export const RESET_REQUESTED =
  "If an account uses this email, a link to choose a new password is on its way. It works once, for one hour.";

export const resetRateLimited = (retryAfterSeconds: number) =>
  new ApiError("RATE_LIMITED", `Too many reset requests. Try again in ${minutesOfWait(retryAfterSeconds)}.`, undefined);

/**
 * Sends a reset link when `email` belongs to an active account; says the same either way.
 * Limited per address and per email (counted either way). Throws RATE_LIMITED when spent.
 */
export async function requestPasswordReset(ip: string, email: string): Promise<{ message: string }> {
  const address = email.trim().toLowerCase();
  const gate = await reserveResetRequest(ip, address);
  if (!gate.allowed) throw resetRateLimited(gate.retryAfterSeconds);
  const user = await db.user.findUnique({
    where: { email: address },
    select: { id: true, email: true, customerId: true, customer: { select: { status: true } } },
  });
  if (user?.customer.status === "ACTIVE") {
    const link = newResetToken();
    await db.$transaction(async (tx) => {
      // One link in force at a time: a new request ends the earlier ones.
      await tx.passwordReset.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: new Date() } });
      await tx.passwordReset.create({
        data: { userId: user.id, tokenHash: link.tokenHash, expiresAt: link.expiresAt },
      });
      await queueMail(
        tx,
        resetLinkMail({
          customerId: user.customerId,
          to: user.email,
          link: dashboardLink(resetPath(link.token)),
          expiresAt: link.expiresAt,
        }),
      );
    });
  }
  return { message: RESET_REQUESTED };
}

const linkRefused = () =>
  new ApiError(
    "NOT_FOUND",
    "This reset link is not valid any more (used, replaced or older than an hour). Ask for a new one.",
  );

/** The email a reset link is for, or null when it cannot be used (unknown, used, expired). */
export async function resetLinkEmail(token: string, now = Date.now()): Promise<string | null> {
  if (!isResetTokenShape(token)) return null;
  const reset = await db.passwordReset.findUnique({
    where: { tokenHash: hashResetToken(token) },
    select: { expiresAt: true, usedAt: true, user: { select: { email: true } } },
  });
  return reset && resetUsable(reset, now) ? reset.user.email : null;
}

/**
 * Sets a new password with a reset link: the link is claimed (single use) in the same
 * transaction, and every session of the member ends. Returns the email (to sign in).
 * `origin`: where the request came from, as the audit entry records it.
 */
export async function resetPassword(
  token: string,
  password: string,
  origin: RequestOrigin | null = null,
  now = Date.now(),
): Promise<{ email: string }> {
  if ((await resetLinkEmail(token, now)) === null) throw linkRefused();
  const passwordHash = await hashPassword(password);
  const tokenHash = hashResetToken(token);
  return db.$transaction(async (tx) => {
    const reset = await tx.passwordReset.findUnique({
      where: { tokenHash },
      select: { id: true, user: { select: { id: true, email: true, customerId: true } } },
    });
    if (!reset) throw linkRefused();
    const { count } = await tx.passwordReset.updateMany({
      where: { id: reset.id, usedAt: null, expiresAt: { gt: new Date(now) } },
      data: { usedAt: new Date(now) },
    });
    if (count !== 1) throw linkRefused();
    const { user } = reset;
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const ended = await endSessionsOf(tx, user.id, "password_reset");
    await recordAudit(tx, {
      ...memberAuditContext(user.customerId, { email: user.email, userId: user.id }, origin ?? undefined),
      action: "member.password_reset",
      target: { type: "member", uid: user.email },
      details: { sessionsEnded: ended },
    });
    await queueMail(
      tx,
      passwordChangedMail({ customerId: user.customerId, to: user.email, at: new Date(now), how: "reset" }),
    );
    return { email: user.email };
  });
}

/** A signed-in member changes their password (the current one required); their other sessions end. */
export async function changePassword(p: Principal, current: string, next: string): Promise<void> {
  const member = assertPermission(p, "account");
  const user = await db.user.findFirstOrThrow({
    where: { id: member.userId, customerId: p.customerId },
    select: { passwordHash: true },
  });
  if (!(await verifyPassword(user.passwordHash, current))) {
    const message = "That is not your current password";
    throw new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "currentPassword", message }] });
  }
  const passwordHash = await hashPassword(next);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: member.userId }, data: { passwordHash } });
    const ended = await endSessionsOf(tx, member.userId, "password_changed", p.sessionId);
    await recordAudit(tx, {
      ...auditContext(p),
      action: "member.password_changed",
      target: { type: "member", uid: member.email },
      details: { sessionsEnded: ended },
    });
    await queueMail(
      tx,
      passwordChangedMail({ customerId: p.customerId, to: member.email, at: new Date(), how: "changed" }),
    );
  });
}

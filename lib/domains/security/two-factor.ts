// Two-factor authentication (docs/security.md "Two-factor"): TOTP set up by scanning a QR
// code and confirmed with a first code, 10 single-use recovery codes, the secret encrypted
// with the app key. A code is accepted once: the last accepted time step is kept and a
// recovery code is claimed with a conditional UPDATE (two parallel sign-ins cannot both use it).
import QRCode from "qrcode";
import { decryptSecret, encryptSecret } from "@/lib/core/crypto/secret-box";
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { operatorPrincipal } from "@/lib/domains/auth/principal";
import { queueMail } from "@/lib/domains/mail/outbox";
import { twoFactorOffMail } from "./notices";
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode } from "./recovery-codes";
import { endSessionsOf } from "./sessions";
import { acceptTotp, newTotpSecret, totpUri } from "./totp";

const wrongCode = () =>
  new ApiError("VALIDATION_FAILED", "That code is not valid. Enter the current 6-digit code from your app.", {
    fields: [{ path: "code", message: "That code is not valid" }],
  });

export type TwoFactorState = { enabled: boolean; recoveryCodesLeft: number };

export async function twoFactorState(p: Principal): Promise<TwoFactorState> {
  const member = assertPermission(p, "account");
  const user = await db.user.findFirstOrThrow({
    where: { id: member.userId, customerId: p.customerId },
    select: { totpEnabledAt: true, _count: { select: { recoveryCodes: { where: { usedAt: null } } } } },
  });
  return { enabled: user.totpEnabledAt !== null, recoveryCodesLeft: user._count.recoveryCodes };
}

/** The secret (shown as text too, for typing in), its otpauth URI and the URI as a QR code image (a data: URL). */
export type TwoFactorSetup = { secret: string; uri: string; qrDataUrl: string };

/**
 * Starts (or restarts) setting up: a new secret, kept encrypted but not in force until a
 * first code confirms it. Refused while two-factor is on (turn it off first).
 */
export async function beginTwoFactorSetup(p: Principal): Promise<TwoFactorSetup> {
  const member = assertPermission(p, "account");
  const secret = newTotpSecret();
  const { count } = await db.user.updateMany({
    where: { id: member.userId, customerId: p.customerId, totpEnabledAt: null },
    data: { totpSecret: encryptSecret(secret), totpLastStep: null },
  });
  if (count !== 1) throw new ApiError("CONFLICT", "Two-factor authentication is already on");
  const uri = totpUri(secret, member.email);
  return { secret, uri, qrDataUrl: await QRCode.toDataURL(uri, { margin: 1, width: 192 }) };
}

async function replaceRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({
    data: codes.map((c) => ({ userId, codeHash: hashRecoveryCode(normaliseRecoveryCode(c) ?? c) })),
  });
  return codes;
}

/**
 * Confirms the setup with a first code: two-factor is on; the 10 recovery codes are returned
 * (shown once). The member's other sessions end (docs/security.md "Sessions"): a session
 * opened with the password alone, perhaps by whoever made two-factor necessary, does not
 * outlive it; this one stays.
 */
export async function confirmTwoFactor(p: Principal, code: string, at = Date.now()): Promise<string[]> {
  const member = assertPermission(p, "account");
  return db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({
      where: { id: member.userId, customerId: p.customerId, totpEnabledAt: null, totpSecret: { not: null } },
      select: { totpSecret: true },
    });
    if (!user?.totpSecret) throw new ApiError("CONFLICT", "Start setting up two-factor authentication first");
    const step = acceptTotp(decryptSecret(user.totpSecret), code, at, null);
    if (step === null) throw wrongCode();
    await tx.user.update({ where: { id: member.userId }, data: { totpEnabledAt: new Date(at), totpLastStep: step } });
    const ended = await endSessionsOf(tx, member.userId, "two_factor_enabled", p.sessionId);
    await recordAudit(tx, {
      ...auditContext(p),
      action: "member.2fa_enabled",
      target: { type: "member", uid: member.email },
      details: { sessionsEnded: ended },
    });
    return replaceRecoveryCodes(tx, member.userId);
  });
}

/**
 * Checks a second factor for `userId` and uses it up: a TOTP code (newer than the last
 * accepted) or an unused recovery code. True when accepted.
 */
export async function useSecondFactor(tx: Tx, userId: string, typed: string, at = Date.now()): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { totpSecret: true, totpLastStep: true } });
  if (!user?.totpSecret) return false;
  const step = acceptTotp(decryptSecret(user.totpSecret), typed, at, user.totpLastStep);
  if (step !== null) {
    // Conditional: a parallel sign-in with the same code loses the race.
    const { count } = await tx.user.updateMany({
      where: { id: userId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
      data: { totpLastStep: step },
    });
    return count === 1;
  }
  const recovery = normaliseRecoveryCode(typed);
  if (!recovery) return false;
  const { count } = await tx.recoveryCode.updateMany({
    where: { userId, codeHash: hashRecoveryCode(recovery), usedAt: null },
    data: { usedAt: new Date(at) },
  });
  return count === 1;
}

/** Turns two-factor off: needs a current code (or a recovery code); the member is emailed. */
export async function disableTwoFactor(p: Principal, code: string, at = Date.now()): Promise<void> {
  const member = assertPermission(p, "account");
  await db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({
      where: { id: member.userId, customerId: p.customerId, totpEnabledAt: { not: null } },
      select: { id: true },
    });
    if (!user) throw new ApiError("CONFLICT", "Two-factor authentication is not on");
    if (!(await useSecondFactor(tx, member.userId, code, at))) throw wrongCode();
    await tx.user.update({
      where: { id: member.userId },
      data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
    });
    await tx.recoveryCode.deleteMany({ where: { userId: member.userId } });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "member.2fa_disabled",
      target: { type: "member", uid: member.email },
    });
    await queueMail(tx, twoFactorOffMail({ customerId: p.customerId, to: member.email, at: new Date(at) }));
  });
}

/** New recovery codes (the old ones stop working); needs a current code. */
export async function regenerateRecoveryCodes(p: Principal, code: string, at = Date.now()): Promise<string[]> {
  const member = assertPermission(p, "account");
  return db.$transaction(async (tx) => {
    const on = await tx.user.count({
      where: { id: member.userId, customerId: p.customerId, totpEnabledAt: { not: null } },
    });
    if (on !== 1) throw new ApiError("CONFLICT", "Two-factor authentication is not on");
    if (!(await useSecondFactor(tx, member.userId, code, at))) throw wrongCode();
    return replaceRecoveryCodes(tx, member.userId);
  });
}

/** Owners require (or stop requiring) two-factor sign-in of every member of the account. */
export async function setRequireTwoFactor(p: Principal, required: boolean): Promise<void> {
  const actor = assertPermission(p, "members");
  if (actor.role !== "owner") {
    throw new ApiError("PERMISSION_DENIED", "Only an owner can require two-factor authentication", {
      permission: "members",
    });
  }
  await db.customer.update({ where: { id: p.customerId }, data: { require2fa: required } });
}

export async function twoFactorRequired(p: Principal): Promise<boolean> {
  const c = await db.customer.findUniqueOrThrow({ where: { id: p.customerId }, select: { require2fa: true } });
  return c.require2fa;
}

/**
 * The operator turns off two-factor of a member who lost both their app and their recovery
 * codes (after checking who asks, outside Switchboard): `npm run -s cli -- user:2fa-off`.
 * Every session of the member ends and they are emailed. False when it was not on.
 */
export async function operatorDisableTwoFactor(email: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { email: email.trim().toLowerCase() },
      select: { id: true, email: true, customerId: true, totpEnabledAt: true },
    });
    if (!user) throw new ApiError("NOT_FOUND", `No member with the email ${email}`);
    if (!user.totpEnabledAt) return false;
    await tx.user.update({
      where: { id: user.id },
      data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
    });
    await tx.recoveryCode.deleteMany({ where: { userId: user.id } });
    await endSessionsOf(tx, user.id, "ended_by_admin");
    await recordAudit(tx, {
      ...auditContext(operatorPrincipal(user.customerId)),
      action: "member.2fa_disabled",
      target: { type: "member", uid: user.email },
      details: { by: "operator" },
    });
    await queueMail(tx, twoFactorOffMail({ customerId: user.customerId, to: user.email, at: new Date() }));
    return true;
  });
}

// Server-side dashboard sessions (docs/security.md "Sessions"). next-auth keeps a signed,
// encrypted JWT in the cookie; the JWT carries the id of a UserSession row, and every
// request checks that row (lib/domains/security/session-principal.ts joins it), so ending the
// row (sign-out, "end session", a password reset or change, two-factor turned on, an admin) refuses the cookie's
// next request even though the JWT itself is still valid.
import { randomBytes } from "node:crypto";
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { queueMail } from "@/lib/domains/mail/outbox";
import { assertMayManage } from "@/lib/domains/members/service";
import { deviceLabel } from "./device";
import { newDeviceMail } from "./notices";

/** As long as the JWT (lib/dashboard/next-auth.ts maxAge); renewed while the session is used. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
/** lastSeenAt is written at most this often per session (one UPDATE a minute, not one per request). */
export const TOUCH_EVERY_MS = 60_000;

export type EndReason =
  | "signed_out"
  | "ended"
  | "ended_by_admin"
  | "password_reset"
  | "password_changed"
  | "two_factor_enabled";

const newSessionId = () => `ses_${randomBytes(18).toString("base64url")}`;

export type SessionStart = { userId: string; customerId: string; ip: string | null; userAgent: string | null };

/**
 * Opens a session for a member who just signed in; its id goes into the JWT. A sign-in from
 * a device this member never signed in from before (and they have signed in before) queues
 * the "new sign-in" notice in the same transaction.
 */
export async function openSession(start: SessionStart): Promise<string> {
  const id = newSessionId();
  const device = deviceLabel(start.userAgent);
  await db.$transaction(async (tx) => {
    const earlier = await tx.userSession.findMany({
      where: { userId: start.userId },
      select: { device: true },
      distinct: ["device"],
    });
    await tx.userSession.create({
      data: {
        id,
        userId: start.userId,
        customerId: start.customerId,
        ip: start.ip,
        userAgent: start.userAgent?.slice(0, 500) ?? null,
        device,
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      },
    });
    if (earlier.length > 0 && !earlier.some((e) => e.device === device)) {
      const user = await tx.user.findUniqueOrThrow({ where: { id: start.userId }, select: { email: true } });
      await queueMail(
        tx,
        newDeviceMail({ customerId: start.customerId, to: user.email, device, ip: start.ip, at: new Date() }),
      );
    }
  });
  return id;
}

/** Records that the session was used (at most once a minute; never fails the request). */
export async function touchSession(sessionId: string, ip: string | null): Promise<void> {
  const now = Date.now();
  await db.userSession
    .updateMany({
      where: { id: sessionId, endedAt: null, lastSeenAt: { lt: new Date(now - TOUCH_EVERY_MS) } },
      data: { lastSeenAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_MS), ...(ip ? { ip } : {}) },
    })
    .catch(() => {});
}

/** Ends one session by id (sign-out). Nothing when it is already ended or unknown. */
export async function endSessionById(sessionId: string, reason: EndReason): Promise<void> {
  await db.userSession.updateMany({
    where: { id: sessionId, endedAt: null },
    data: { endedAt: new Date(), endedReason: reason },
  });
}

/** Ends every open session of a user but `keep` (inside the caller's transaction). */
export async function endSessionsOf(tx: Tx, userId: string, reason: EndReason, keep?: string): Promise<number> {
  const { count } = await tx.userSession.updateMany({
    where: { userId, endedAt: null, ...(keep ? { id: { not: keep } } : {}) },
    data: { endedAt: new Date(), endedReason: reason },
  });
  return count;
}

export type SessionRow = {
  id: string;
  device: string;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
};

/** session.revoked: `count` sessions of the member `email` ended by `p` (docs/security.md "Audit log"). */
async function recordRevoked(tx: Tx, p: Principal, email: string, count: number): Promise<void> {
  await recordAudit(tx, {
    ...auditContext(p),
    action: "session.revoked",
    target: { type: "member", uid: email },
    details: { sessions: count },
  });
}

const self = (p: Principal) => {
  const member = assertPermission(p, "account");
  return member;
};

/** The member's own open sessions, the current one first, then by last use. */
export async function listMySessions(p: Principal): Promise<SessionRow[]> {
  const member = self(p);
  const rows = await db.userSession.findMany({
    where: { userId: member.userId, customerId: p.customerId, endedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, device: true, ip: true, createdAt: true, lastSeenAt: true },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
  });
  return rows
    .map((r) => ({ ...r, current: r.id === p.sessionId }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the member's own sessions (the current one too: that is signing out). */
export async function endMySession(p: Principal, sessionId: string): Promise<void> {
  const member = self(p);
  await db.$transaction(async (tx) => {
    const { count } = await tx.userSession.updateMany({
      where: { id: sessionId, userId: member.userId, customerId: p.customerId, endedAt: null },
      data: { endedAt: new Date(), endedReason: "ended" },
    });
    if (count !== 1) throw new ApiError("NOT_FOUND", "No open session with this id");
    await recordRevoked(tx, p, member.email, 1);
  });
}

/** Ends every other session of the member (keeps the one asking). */
export async function endMyOtherSessions(p: Principal): Promise<number> {
  const member = self(p);
  return db.$transaction(async (tx) => {
    const count = await endSessionsOf(tx, member.userId, "ended", p.sessionId);
    if (count > 0) await recordRevoked(tx, p, member.email, count);
    return count;
  });
}

/** An owner or admin ends every session of a member (an admin: not an owner's). */
export async function endMemberSessions(p: Principal, userId: string): Promise<number> {
  const actor = assertPermission(p, "members");
  const target = await db.user.findFirst({
    where: { id: userId, customerId: p.customerId },
    select: { role: true, email: true },
  });
  if (!target) throw new ApiError("NOT_FOUND", "Member not found in this account");
  assertMayManage(actor, target.role);
  return db.$transaction(async (tx) => {
    const count = await endSessionsOf(tx, userId, "ended_by_admin", userId === actor.userId ? p.sessionId : undefined);
    if (count > 0) await recordRevoked(tx, p, target.email, count);
    return count;
  });
}

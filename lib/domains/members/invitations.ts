// Invitations (docs/members.md "Invitations"): an owner or admin invites an email with a
// role (and an agent's senders); the invitee gets a link that works once, for 7 days. Only
// the SHA-256 of the link's token is stored; resending issues a new token (the old link
// stops working), revoking ends it. Opening the link sets a password and joins. The email
// is queued in the same transaction (lib/domains/mail/outbox.ts), so it is never lost.
import { createHash, randomBytes } from "node:crypto";
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { auditContext, memberAuditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import { hashPassword } from "@/lib/domains/auth/password";
import { type Role, SENDER_LIMITED_ROLES } from "@/lib/domains/auth/permissions";
import type { Member, Principal, RequestOrigin } from "@/lib/domains/auth/principal";
import { dashboardLink } from "@/lib/domains/mail/links";
import { queueMail } from "@/lib/domains/mail/outbox";
import { Prisma } from "@/lib/generated/prisma/client";
import { invitationMail, invitationToTakenEmailMail } from "./invitation-mail";
import type { InvitationAcceptValue, InvitationCreateValue } from "./schemas";
import { senderLimitFor, writeSenderLimit } from "./senders";
import { type InvitationRow, type InvitationState, invitationState } from "./serializers";
import { assertMayManage, lockMembers } from "./service";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
const newInvitationId = () => `inv_${randomBytes(12).toString("hex")}`;
export const invitationPath = (token: string) => `/invite/${token}`;

const invitationNotFound = () => new ApiError("NOT_FOUND", "No open invitation with this id in this account");

/**
 * Refuses a member of this account (the inviter sees them on the members page anyway); says
 * whether the email has an account elsewhere. That is never said to the inviter (who could
 * otherwise learn which emails have an account): the invitation is made and listed as
 * pending like any other, and the email's owner is told instead (docs/members.md "Invitations").
 */
async function accountElsewhere(tx: Tx, customerId: string, email: string): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { email }, select: { customerId: true } });
  if (user?.customerId === customerId) {
    const message = `${email} is already a member of this account`;
    throw new ApiError("CONFLICT", message, { fields: [{ path: "email", message }] });
  }
  return user !== null;
}

/** A new link's token (only its hash is stored) and the end of its 7 days. */
function issueLink() {
  const token = newToken();
  return { token, tokenHash: hashInvitationToken(token), expiresAt: new Date(Date.now() + INVITATION_TTL_MS) };
}

/**
 * Queues the invitation's email (inside the caller's transaction): its link, or, to an email
 * with an account elsewhere, no link (it could not be accepted) but what to do instead.
 */
async function queueInvitationMail(
  tx: Tx,
  actor: Member,
  inv: { customerId: string; email: string; role: Role; elsewhere: boolean },
  link: { token: string; expiresAt: Date },
): Promise<void> {
  const customer = await tx.customer.findUniqueOrThrow({ where: { id: inv.customerId }, select: { name: true } });
  const common = {
    customerId: inv.customerId,
    to: inv.email,
    accountName: customer.name,
    role: inv.role,
    inviter: actor.name ? `${actor.name} (${actor.email})` : actor.email,
  };
  await queueMail(
    tx,
    inv.elsewhere
      ? invitationToTakenEmailMail(common)
      : invitationMail({ ...common, link: dashboardLink(invitationPath(link.token)), expiresAt: link.expiresAt }),
  );
}

const INVITATION_SELECT = {
  id: true,
  email: true,
  role: true,
  senderIds: true,
  expiresAt: true,
  acceptedAt: true,
  revokedAt: true,
  createdAt: true,
  invitedBy: { select: { email: true } },
} as const;

type InvitationRecord = Prisma.InvitationGetPayload<{ select: typeof INVITATION_SELECT }>;

async function withPhones(customerId: string, rows: InvitationRecord[]): Promise<InvitationRow[]> {
  const ids = [...new Set(rows.flatMap((r) => r.senderIds))];
  const senders = ids.length
    ? await db.sender.findMany({ where: { customerId, id: { in: ids } }, select: { id: true, phoneNumber: true } })
    : [];
  const phoneOf = new Map(senders.map((s) => [s.id, s.phoneNumber]));
  return rows.map(({ senderIds, invitedBy, ...r }) => ({
    ...r,
    senderPhones: senderIds.flatMap((id) => phoneOf.get(id) ?? []),
    invitedByEmail: invitedBy?.email ?? null,
  }));
}

/**
 * Invites an email: refused when it is a member here or has an open invitation here. An email
 * with an account elsewhere is invited all the same, as far as the inviter can tell.
 */
export async function createInvitation(p: Principal, input: InvitationCreateValue): Promise<InvitationRow> {
  const actor = assertPermission(p, "members");
  assertMayManage(actor, input.role);
  const row = await db.$transaction(async (tx) => {
    await lockMembers(tx, p.customerId);
    const elsewhere = await accountElsewhere(tx, p.customerId, input.email);
    const open = await tx.invitation.count({
      where: {
        customerId: p.customerId,
        email: input.email,
        acceptedAt: null,
        revokedAt: null,
        expiresAt: { gt: new Date() },
      },
    });
    if (open > 0) {
      const message = `${input.email} is already invited: resend or revoke that invitation`;
      throw new ApiError("CONFLICT", message, { fields: [{ path: "email", message }] });
    }
    const limit = await senderLimitFor(tx, p.customerId, input.role, input.senders);
    const id = newInvitationId();
    const link = issueLink();
    await tx.invitation.create({
      data: {
        id,
        customerId: p.customerId,
        email: input.email,
        role: input.role,
        senderIds: limit.senderIds,
        tokenHash: link.tokenHash,
        expiresAt: link.expiresAt,
        invitedById: actor.userId,
      },
    });
    await queueInvitationMail(
      tx,
      actor,
      { customerId: p.customerId, email: input.email, role: input.role, elsewhere },
      link,
    );
    await recordAudit(tx, {
      ...auditContext(p),
      action: "member.invited",
      target: { type: "member", uid: input.email },
      details: { role: input.role, invitationId: id },
    });
    return tx.invitation.findFirstOrThrow({ where: { id, customerId: p.customerId }, select: INVITATION_SELECT });
  });
  const [withSenders] = await withPhones(p.customerId, [row]);
  if (!withSenders) throw invitationNotFound();
  return withSenders;
}

/** Sends the invitation again with a new link (the old one stops working) and 7 more days. */
export async function resendInvitation(p: Principal, id: string): Promise<void> {
  const actor = assertPermission(p, "members");
  await db.$transaction(async (tx) => {
    await lockMembers(tx, p.customerId);
    const inv = await tx.invitation.findFirst({
      where: { id, customerId: p.customerId, acceptedAt: null, revokedAt: null },
      select: { id: true, email: true, role: true },
    });
    if (!inv) throw invitationNotFound();
    assertMayManage(actor, inv.role);
    const elsewhere = await accountElsewhere(tx, p.customerId, inv.email);
    const link = issueLink();
    await tx.invitation.updateMany({
      where: { id, customerId: p.customerId, acceptedAt: null, revokedAt: null },
      data: { tokenHash: link.tokenHash, expiresAt: link.expiresAt },
    });
    await queueInvitationMail(tx, actor, { ...inv, customerId: p.customerId, elsewhere }, link);
  });
}

/** Revokes an open invitation: its link stops working. */
export async function revokeInvitation(p: Principal, id: string): Promise<void> {
  const actor = assertPermission(p, "members");
  await db.$transaction(async (tx) => {
    await lockMembers(tx, p.customerId);
    const inv = await tx.invitation.findFirst({
      where: { id, customerId: p.customerId, acceptedAt: null, revokedAt: null },
      select: { role: true },
    });
    if (!inv) throw invitationNotFound();
    assertMayManage(actor, inv.role);
    await tx.invitation.updateMany({
      where: { id, customerId: p.customerId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  });
}

/** The account's open invitations (pending or expired; not accepted or revoked), newest first. */
export async function listInvitations(p: Principal): Promise<InvitationRow[]> {
  assertPermission(p, "members");
  const rows = await db.invitation.findMany({
    where: { customerId: p.customerId, acceptedAt: null, revokedAt: null },
    select: INVITATION_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return withPhones(p.customerId, rows);
}

export type InvitationView = {
  state: InvitationState;
  email: string;
  role: Role;
  accountName: string;
  expiresAt: Date;
};

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the invitation page shows for a link (no secret); null: no such invitation. */
export async function invitationForToken(token: string): Promise<InvitationView | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const inv = await db.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    select: {
      email: true,
      role: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      customer: { select: { name: true, status: true } },
    },
  });
  if (inv?.customer.status !== "ACTIVE") return null;
  return {
    state: invitationState(inv),
    email: inv.email,
    role: inv.role,
    accountName: inv.customer.name,
    expiresAt: inv.expiresAt,
  };
}

function refusal(view: InvitationView | null): ApiError | null {
  if (!view) return new ApiError("NOT_FOUND", "This invitation link is not valid. Ask for a new invitation.");
  if (view.state === "accepted") return new ApiError("CONFLICT", "This invitation was already used. Sign in instead.");
  if (view.state === "revoked") return new ApiError("NOT_FOUND", "This invitation was revoked. Ask for a new one.");
  if (view.state === "expired") return new ApiError("NOT_FOUND", "This invitation has expired. Ask for a new one.");
  return null;
}

/**
 * Joins the account with the invitation behind `token`: sets the invitee's password and
 * makes them a member with the invited role (and senders that still exist). Single use: the
 * invitation is claimed in the same transaction as the member is created.
 */
export async function acceptInvitation(
  token: string,
  input: InvitationAcceptValue,
  origin?: RequestOrigin,
): Promise<{ email: string; customerId: string }> {
  // Checked before the (deliberately slow) password hash: a bad link costs nothing.
  const early = refusal(await invitationForToken(token));
  if (early) throw early;
  const passwordHash = await hashPassword(input.password);
  const tokenHash = hashInvitationToken(token);
  try {
    return await db.$transaction(async (tx) => {
      const inv = await tx.invitation.findUnique({ where: { tokenHash } });
      if (!inv) throw refusal(null) ?? invitationNotFound();
      await lockMembers(tx, inv.customerId);
      const now = new Date();
      const { count } = await tx.invitation.updateMany({
        where: { id: inv.id, tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
        data: { acceptedAt: now },
      });
      if (count !== 1) throw refusal(await invitationForToken(token)) ?? invitationNotFound();
      const senders = await tx.sender.findMany({
        where: { customerId: inv.customerId, id: { in: inv.senderIds } },
        select: { id: true },
      });
      const limited = SENDER_LIMITED_ROLES.includes(inv.role) && inv.senderIds.length > 0;
      const user = await tx.user.create({
        data: {
          customerId: inv.customerId,
          email: inv.email,
          name: input.name || null,
          passwordHash,
          role: inv.role,
          sendersLimited: limited,
        },
      });
      await writeSenderLimit(tx, inv.customerId, user.id, {
        limited,
        senderIds: limited ? senders.map((s) => s.id) : [],
      });
      // The new member is the actor (`origin`: the accepting request's, when the caller knows it).
      await recordAudit(tx, {
        ...memberAuditContext(inv.customerId, { email: user.email, userId: user.id }, origin),
        action: "member.joined",
        target: { type: "member", uid: user.email },
        details: { role: inv.role, invitationId: inv.id },
      });
      return { email: user.email, customerId: inv.customerId };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ApiError("CONFLICT", "This email already has a Switchboard account. Sign in instead.");
    }
    throw error;
  }
}

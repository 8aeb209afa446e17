// Members of an account (docs/members.md): list, change role and senders, remove, and add
// (the operator CLI, an accepted invitation). Owners and admins only, and an admin never
// touches an owner; every change runs under a per-account lock so that at least one owner
// always remains, even when two owners demote each other at once. A change applies on the
// member's next request (lib/domains/security/session-principal.ts reads the member each time).
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import { hashPassword } from "@/lib/domains/auth/password";
import { type Role, SENDER_LIMITED_ROLES } from "@/lib/domains/auth/permissions";
import { type Member, type Principal, systemPrincipal } from "@/lib/domains/auth/principal";
import { UserEmailTakenError } from "@/lib/domains/users/service";
import { Prisma } from "@/lib/generated/prisma/client";
import type { MemberChangeValue } from "./schemas";
import { senderLimitFor, writeSenderLimit } from "./senders";
import type { MemberRow } from "./serializers";

export const MEMBER_SELECT = {
  id: true,
  email: true,
  name: true,
  role: true,
  sendersLimited: true,
  createdAt: true,
  lastLoginAt: true,
  senders: { select: { sender: { select: { phoneNumber: true } } } },
} as const;

export const memberNotFound = () => new ApiError("NOT_FOUND", "Member not found in this account");

const ownersOnly = () =>
  new ApiError("PERMISSION_DENIED", "Only an owner can invite, change or remove an owner", { permission: "members" });

/**
 * An admin may manage everyone but owners (and may not make anyone an owner); an owner may
 * do everything. `roles`: the roles the change touches (the member's current and new one).
 */
export function assertMayManage(actor: Member, ...roles: Role[]): void {
  if (actor.role !== "owner" && roles.includes("owner")) throw ownersOnly();
}

/** Serialises member changes of one account (the last-owner rule reads, then writes). */
export async function lockMembers(tx: Tx, customerId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Customer" WHERE "id" = ${customerId} FOR UPDATE`;
}

async function assertAnotherOwner(tx: Tx, customerId: string, userId: string): Promise<void> {
  const others = await tx.user.count({ where: { customerId, role: "owner", id: { not: userId } } });
  if (others === 0) {
    throw new ApiError("CONFLICT", "An account always keeps at least one owner: make another member owner first");
  }
}

export async function listMembers(p: Principal): Promise<MemberRow[]> {
  assertPermission(p, "members");
  return db.user.findMany({
    where: { customerId: p.customerId },
    select: MEMBER_SELECT,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Changes a member's role and, for an agent, the senders they work on. */
export async function changeMember(p: Principal, userId: string, input: MemberChangeValue): Promise<MemberRow> {
  const actor = assertPermission(p, "members");
  return db.$transaction(async (tx) => {
    await lockMembers(tx, p.customerId);
    const target = await tx.user.findFirst({
      where: { id: userId, customerId: p.customerId },
      select: { role: true, email: true },
    });
    if (!target) throw memberNotFound();
    assertMayManage(actor, target.role, input.role);
    if (target.role === "owner" && input.role !== "owner") await assertAnotherOwner(tx, p.customerId, userId);
    const limit = await senderLimitFor(tx, p.customerId, input.role, input.senders);
    await tx.user.updateMany({
      where: { id: userId, customerId: p.customerId },
      data: { role: input.role, sendersLimited: limit.limited },
    });
    await writeSenderLimit(tx, p.customerId, userId, limit);
    await recordAudit(tx, {
      ...auditContext(p),
      action: "member.role_changed",
      target: { type: "member", uid: target.email },
      details: { from: target.role, to: input.role, senders: [...(input.senders ?? [])] },
    });
    return tx.user.findFirstOrThrow({ where: { id: userId, customerId: p.customerId }, select: MEMBER_SELECT });
  });
}

/** Removes a member: their login ends, and their session stops on its next request. */
export async function removeMember(p: Principal, userId: string): Promise<void> {
  const actor = assertPermission(p, "members");
  await db.$transaction(async (tx) => {
    await lockMembers(tx, p.customerId);
    const target = await tx.user.findFirst({
      where: { id: userId, customerId: p.customerId },
      select: { role: true, email: true },
    });
    if (!target) throw memberNotFound();
    assertMayManage(actor, target.role);
    if (target.role === "owner") await assertAnotherOwner(tx, p.customerId, userId);
    await tx.user.deleteMany({ where: { id: userId, customerId: p.customerId } });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "member.removed",
      target: { type: "member", uid: target.email },
      details: { role: target.role },
    });
  });
}

export type NewMember = {
  customerId: string;
  email: string;
  password: string;
  name?: string | null;
  role: Role;
  /** An agent's senders as phone numbers; none: every sender. */
  senders?: readonly string[];
  /** The input that named the senders, for the error (a form field, a CLI flag). */
  sendersField?: string;
};

/**
 * Adds a member with a password (the operator CLI; an accepted invitation, inside its
 * transaction). A taken email (emails are unique across accounts) is UserEmailTakenError.
 */
export async function addMember(input: NewMember, tx?: Tx, by?: Principal) {
  const passwordHash = await hashPassword(input.password);
  const work = async (t: Tx) => {
    const limit = await senderLimitFor(t, input.customerId, input.role, input.senders ?? [], input.sendersField);
    const email = input.email.trim().toLowerCase();
    try {
      const user = await t.user.create({
        data: {
          customerId: input.customerId,
          email,
          name: input.name ?? null,
          passwordHash,
          role: input.role,
          sendersLimited: limit.limited,
        },
      });
      await writeSenderLimit(t, input.customerId, user.id, limit);
      // By the operator (user:create), or `system` when no one is named.
      await recordAudit(t, {
        ...auditContext(by ?? systemPrincipal(input.customerId)),
        action: "member.joined",
        target: { type: "member", uid: email },
        details: { role: input.role },
      });
      return user;
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
        throw new UserEmailTakenError(email);
      }
      throw error;
    }
  };
  return tx ? work(tx) : db.$transaction(work);
}

/**
 * A member of the account by email, as the session would load them (role and senders), or
 * null: for checks such as "the assignee must be a member who may see this sender".
 */
export async function memberByEmail(customerId: string, email: string, tx: Tx = db): Promise<Member | null> {
  const row = await tx.user.findFirst({
    where: { customerId, email: email.trim().toLowerCase() },
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      sendersLimited: true,
      senders: { select: { senderId: true } },
    },
  });
  if (!row) return null;
  return {
    userId: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    senderIds:
      row.sendersLimited && SENDER_LIMITED_ROLES.includes(row.role) ? row.senders.map((s) => s.senderId) : null,
  };
}

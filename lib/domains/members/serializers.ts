// What the members page shows of a member and an invitation: never a password hash or an
// invitation's token hash.
import type { Role } from "@/lib/domains/auth/permissions";

export type MemberRow = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  sendersLimited: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  senders: { sender: { phoneNumber: string } }[];
};

export type PublicMember = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** The senders an agent is limited to; null: every sender. */
  senders: string[] | null;
  createdAt: string;
  lastLoginAt: string | null;
};

export function toPublicMember(row: MemberRow): PublicMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    senders: row.sendersLimited ? row.senders.map((s) => s.sender.phoneNumber).sort() : null,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  };
}

export type InvitationRow = {
  id: string;
  email: string;
  role: Role;
  senderPhones: string[];
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  invitedByEmail: string | null;
};

export type InvitationState = "pending" | "expired" | "accepted" | "revoked";

export type PublicInvitation = {
  id: string;
  email: string;
  role: Role;
  senders: string[] | null;
  state: InvitationState;
  expiresAt: string;
  invitedBy: string | null;
  createdAt: string;
};

export function invitationState(row: Pick<InvitationRow, "acceptedAt" | "revokedAt" | "expiresAt">, now = new Date()) {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

export function toPublicInvitation(row: InvitationRow, now = new Date()): PublicInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    senders: row.role === "agent" && row.senderPhones.length > 0 ? [...row.senderPhones].sort() : null,
    state: invitationState(row, now),
    expiresAt: row.expiresAt.toISOString(),
    invitedBy: row.invitedByEmail,
    createdAt: row.createdAt.toISOString(),
  };
}

// The invitation email (docs/members.md "Invitations"): who invites, to which account, as
// which role, and the single-use link with its expiry; or, to an email with an account
// elsewhere, why it cannot join.

import type { Role } from "@/lib/domains/auth/permissions";
import { escapeHtml, type OutgoingMail } from "@/lib/domains/mail/message";

type InvitationParties = {
  customerId: string;
  to: string;
  accountName: string;
  role: Role;
  inviter: string | null;
};

export type InvitationMailInput = InvitationParties & { link: string; expiresAt: Date };

export function invitationMail(m: InvitationMailInput): OutgoingMail {
  const who = m.inviter ?? "An owner";
  const until = `${m.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const subject = `You are invited to join ${m.accountName} on Switchboard`;
  const text = [
    `${who} invited you to join ${m.accountName} on Switchboard as ${m.role}.`,
    "",
    `Accept the invitation (the link works once, until ${until}):`,
    m.link,
    "",
    "If you did not expect this email, ignore it: nothing happens unless the link is opened.",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(who)} invited you to join <strong>${escapeHtml(m.accountName)}</strong> on Switchboard as ${escapeHtml(m.role)}.</p>`,
    `<p><a href="${escapeHtml(m.link)}">Accept the invitation</a> (the link works once, until ${escapeHtml(until)}).</p>`,
    "<p>If you did not expect this email, ignore it: nothing happens unless the link is opened.</p>",
  ].join("\n");
  return { kind: "invitation", customerId: m.customerId, to: m.to, subject, text, html };
}

/**
 * To an email that already has an account elsewhere (an email belongs to one account): who
 * invited it where, why it cannot join with this address, and what to do instead. No link:
 * the inviter sees the invitation pending, and learns nothing about the address.
 */
export function invitationToTakenEmailMail(m: InvitationParties): OutgoingMail {
  const who = m.inviter ?? "An owner";
  const subject = `You are invited to join ${m.accountName} on Switchboard`;
  const lines = [
    `${who} invited you to join ${m.accountName} on Switchboard as ${m.role}.`,
    `${m.to} already has a Switchboard account, and an email belongs to one account, so it cannot join ${m.accountName}.`,
    "To join, ask them to invite another address of yours. Your account is unchanged, and they are not told why.",
  ];
  return {
    kind: "invitation",
    customerId: m.customerId,
    to: m.to,
    subject,
    text: lines.join("\n\n"),
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n"),
  };
}

// Security notices and the reset email (docs/security.md "What is recorded"): a new sign-in from a
// new device, two-factor turned off, a password reset or change. Sent through the outbox
// (lib/domains/mail/outbox.ts) in the transaction of the change, so a notice is never lost
// and a change that rolls back sends none. They hold no secret; the reset email holds the link.

import { dashboardLink } from "@/lib/domains/mail/links";
import { escapeHtml, type OutgoingMail } from "@/lib/domains/mail/message";

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

const NOT_YOU =
  "If this was not you, reset your password from the sign-in page and end your other sessions on Account security.";

function notice(kind: string, customerId: string, to: string, subject: string, lines: string[]): OutgoingMail {
  const all = [...lines, "", NOT_YOU, dashboardLink("/account")];
  return {
    kind,
    customerId,
    to,
    subject,
    text: all.join("\n"),
    html: all
      .filter((l) => l !== "")
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join("\n"),
  };
}

export function newDeviceMail(m: { customerId: string; to: string; device: string; ip: string | null; at: Date }) {
  return notice("security_notice", m.customerId, m.to, "New sign-in to your Switchboard account", [
    `Your account ${m.to} was signed in from a device it had not used before:`,
    `${m.device}, address ${m.ip ?? "unknown"}, at ${when(m.at)}.`,
  ]);
}

export function twoFactorOffMail(m: { customerId: string; to: string; at: Date }) {
  return notice("security_notice", m.customerId, m.to, "Two-factor authentication was turned off", [
    `Two-factor authentication was turned off for ${m.to} at ${when(m.at)}.`,
    "Signing in now needs only the password.",
  ]);
}

export function passwordChangedMail(m: { customerId: string; to: string; at: Date; how: "reset" | "changed" }) {
  const what = m.how === "reset" ? "reset with an emailed link" : "changed";
  return notice("security_notice", m.customerId, m.to, "Your Switchboard password was changed", [
    `The password of ${m.to} was ${what} at ${when(m.at)}. Every other session was signed out.`,
  ]);
}

export function resetLinkMail(m: { customerId: string; to: string; link: string; expiresAt: Date }): OutgoingMail {
  const subject = "Reset your Switchboard password";
  const text = [
    `Someone (hopefully you) asked to reset the password of ${m.to}.`,
    "",
    `Choose a new password (the link works once, until ${when(m.expiresAt)}):`,
    m.link,
    "",
    "If you did not ask, ignore this email: your password stays as it is.",
  ].join("\n");
  const html = [
    `<p>Someone (hopefully you) asked to reset the password of ${escapeHtml(m.to)}.</p>`,
    `<p><a href="${escapeHtml(m.link)}">Choose a new password</a> (the link works once, until ${escapeHtml(when(m.expiresAt))}).</p>`,
    "<p>If you did not ask, ignore this email: your password stays as it is.</p>",
  ].join("\n");
  return { kind: "password_reset", customerId: m.customerId, to: m.to, subject, text, html };
}

// The email a sign-up with a taken address sends instead of an answer that says so
// (docs/security.md "Sign-up"): the address's owner learns it, the person at the form only
// that an email went out, as with a password reset request.
import { dashboardLink } from "@/lib/domains/mail/links";
import { escapeHtml, type OutgoingMail } from "@/lib/domains/mail/message";

export function accountExistsMail(m: { customerId: string; to: string }): OutgoingMail {
  const signIn = dashboardLink("/login");
  const reset = dashboardLink("/forgot-password");
  const subject = "You already have a Switchboard account";
  const lines = [
    `Someone (hopefully you) tried to create a Switchboard account with ${m.to}.`,
    "This email already has an account, and an email belongs to one account: nothing new was created.",
  ];
  const text = [
    ...lines,
    "",
    "Sign in:",
    signIn,
    "",
    "Forgot your password? Choose a new one:",
    reset,
    "",
    "If this was not you, ignore this email: your account is unchanged.",
  ].join("\n");
  const html = [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(signIn)}">Sign in</a> or, if you forgot your password, <a href="${escapeHtml(reset)}">choose a new one</a>.</p>`,
    "<p>If this was not you, ignore this email: your account is unchanged.</p>",
  ].join("\n");
  return { kind: "account_exists", customerId: m.customerId, to: m.to, subject, text, html };
}

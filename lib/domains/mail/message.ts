// An email as the outbox keeps it (docs/email.md). The bodies carry links that open an
// account (an invitation, a password reset): they are stored encrypted with the app key
// (lib/core/crypto/secret-box.ts), never in the clear, and never logged but in the local
// fallback, whose whole point is to show them.
import { decryptSecret, encryptSecret } from "@/lib/core/crypto/secret-box";

/** What a sender of email names: its kind (for the list and the logs), recipient, subject and bodies. */
export type OutgoingMail = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The account it concerns (null: none, e.g. an operator's notice). */
  customerId?: string | null;
};

export type MailBody = { text: string; html?: string };

export const sealBody = (body: MailBody): string => encryptSecret(JSON.stringify(body));

/** The bodies, or null once they were emptied (handed to the SMTP server) or cannot be read. */
export function openBody(stored: string): MailBody | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(decryptSecret(stored)) as Partial<MailBody>;
    return typeof parsed.text === "string" ? { text: parsed.text, html: parsed.html } : null;
  } catch {
    return null;
  }
}

/** The http(s) links of a text body (the local fallback logs them; `mail:list` shows them). */
export const linksIn = (text: string): string[] => [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];

/** Escapes text for the HTML body. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

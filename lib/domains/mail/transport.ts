// Where the outbox's emails go (docs/email.md): an SMTP server through nodemailer when
// SMTP_URL is set (smtp:// upgrades with STARTTLS when the server offers it, smtps:// is TLS
// from the start; user and password in the URL), else the local fallback: each email is
// logged with its links and stays in the outbox for `npm run -s cli -- mail:list`.
import nodemailer from "nodemailer";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { linksIn, type MailBody } from "./message";

export type MailEnvelope = { id: string; to: string; subject: string } & MailBody;

export type MailTransport = {
  kind: "smtp" | "log";
  /** Hands the email over; throws when the server refuses it or cannot be reached. */
  send(mail: MailEnvelope): Promise<{ smtpMessageId: string | null }>;
  close(): void;
};

/** A transport to one SMTP server. `from`: the sender address (MAIL_FROM). */
export function smtpTransport(url: string, from: string, options: { timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const transporter = nodemailer.createTransport(url, {
    from,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    kind: "smtp",
    async send(mail) {
      const info = await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        headers: { "X-Switchboard-Mail-Id": mail.id },
      });
      return { smtpMessageId: typeof info.messageId === "string" ? info.messageId : null };
    },
    close: () => transporter.close(),
  };
}

/** No SMTP_URL: the email is logged with its links (and kept in the outbox for mail:list). */
export function logTransport(): MailTransport {
  return {
    kind: "log",
    async send(mail) {
      log.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject, links: linksIn(mail.text) },
        "email not sent (no SMTP_URL): listed by `npm run -s cli -- mail:list`",
      );
      return { smtpMessageId: null };
    },
    close: () => {},
  };
}

/** The transport the environment configures. */
export function transportFromEnv(): MailTransport {
  const { SMTP_URL, MAIL_FROM } = env();
  return SMTP_URL && MAIL_FROM ? smtpTransport(SMTP_URL, MAIL_FROM) : logTransport();
}

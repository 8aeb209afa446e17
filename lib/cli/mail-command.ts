// mail:list (docs/email.md): the email outbox, newest first. Without SMTP_URL this is how a
// local run (the demo, the end-to-end tests) follows an invitation's link; a sent email's
// bodies are no longer kept, so it shows the envelope only.
import { linksIn, openBody } from "@/lib/domains/mail/message";
import { listMail } from "@/lib/domains/mail/outbox";
import { defineCommand } from "./command";
import { MailListArgs } from "./schemas";

export const mailListCommand = defineCommand({
  options: { limit: { type: "string" }, to: { type: "string" } },
  schema: MailListArgs,
  run: async ({ limit, to }) => {
    const rows = await listMail({ limit, to });
    const mail = rows.map((row) => {
      const body = openBody(row.body);
      return {
        id: row.id,
        kind: row.kind,
        to: row.to,
        subject: row.subject,
        status: row.status.toLowerCase(),
        attempts: row.attempts,
        lastError: row.lastError,
        createdAt: row.createdAt.toISOString(),
        sentAt: row.sentAt?.toISOString() ?? null,
        text: body?.text ?? null,
        links: body ? linksIn(body.text) : [],
      };
    });
    const lines = mail.map((m) =>
      [
        `${m.id}  ${m.createdAt}  ${m.status}  to ${m.to}  "${m.subject}"${m.lastError ? `  (${m.lastError})` : ""}`,
        ...(m.text === null ? ["  (body not kept once sent)"] : m.text.split("\n").map((line) => `  ${line}`)),
      ].join("\n"),
    );
    return {
      json: { mail },
      text: mail.length === 0 ? "No emails." : lines.join("\n\n"),
    };
  },
});

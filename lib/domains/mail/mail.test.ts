// The email path (docs/email.md) against a real SMTP server process listening on 127.0.0.1
// (test/smtp-server.ts): queued in the change's transaction, delivered by the worker woken
// by NOTIFY, retried after a refusal or an unreachable server, given up after the last
// attempt; the local fallback keeps each email (links readable) for `mail:list`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { startSmtpServer, type TestSmtpServer } from "@/test/smtp-server";
import { linksIn, openBody } from "./message";
import { listMail, queueMail } from "./outbox";
import { logTransport, smtpTransport } from "./transport";
import { MAX_MAIL_ATTEMPTS, sendDueMail, startMailWorker } from "./worker";

let smtp: TestSmtpServer;
let c: TestCustomer;
const FROM = "Switchboard <no-reply@switchboard.test>";

beforeAll(async () => {
  smtp = await startSmtpServer();
  c = await createTestCustomer();
});
afterAll(async () => {
  await smtp.close();
});

const link = (n: string) => `http://localhost:3000/invite/${n}`;
const mail = (to: string, n: string) => ({
  kind: "invitation",
  customerId: c.customer.id,
  to,
  subject: `Join Test Co ${n}`,
  text: `Open ${link(n)} within 7 days.`,
  html: `<p>Open <a href="${link(n)}">the invitation</a> within 7 days.</p>`,
});
const queue = (to: string, n: string) => db.$transaction((tx) => queueMail(tx, mail(to, n)));
const rowOf = (id: string) => db.mailMessage.findUniqueOrThrow({ where: { id } });
const options = () => ({ customerIds: [c.customer.id], retryBaseMs: 10 });

describe("over SMTP", () => {
  it("the worker, woken by the queueing commit, hands the email to the server; the stored body is emptied", async () => {
    const transport = smtpTransport(smtp.url, FROM);
    const worker = startMailWorker({ ...options(), transport, pollMs: 60_000 });
    try {
      const { id } = await queue("first@example.test", "aaa111");
      const got = await smtp.waitFor((m) => m.to.includes("first@example.test"));
      expect(got.from).toBe("no-reply@switchboard.test");
      expect(got.subject).toBe("Join Test Co aaa111");
      expect(got.raw).toContain(link("aaa111"));
      expect(got.raw.toLowerCase()).toContain(`x-switchboard-mail-id: ${id}`);
      await expect.poll(async () => (await rowOf(id)).status).toBe("SENT");
      const row = await rowOf(id);
      expect(row.body).toBe("");
      expect(row.smtpMessageId).toMatch(/@/);
      expect(row.sentAt).not.toBeNull();
    } finally {
      await worker.stop();
      transport.close();
    }
  });

  it("a refused recipient is retried later, not lost; the next attempt delivers", async () => {
    const transport = smtpTransport(smtp.url, FROM);
    try {
      const { id } = await queue("retry@example.test", "bbb222");
      smtp.refuse = true;
      expect(await sendDueMail({ ...options(), transport })).toBe(1);
      let row = await rowOf(id);
      expect(row).toMatchObject({ status: "PENDING", attempts: 1 });
      expect(row.lastError).toMatch(/450/);
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 1_000);
      expect(openBody(row.body)?.text).toContain(link("bbb222"));
      smtp.refuse = false;
      await db.mailMessage.update({ where: { id }, data: { nextAttemptAt: new Date(Date.now() - 1_000) } });
      expect(await sendDueMail({ ...options(), transport })).toBe(1);
      row = await rowOf(id);
      expect(row).toMatchObject({ status: "SENT", attempts: 2, body: "" });
      expect(smtp.received.filter((m) => m.to.includes("retry@example.test"))).toHaveLength(1);
    } finally {
      smtp.refuse = false;
      transport.close();
    }
  });

  it("wrong credentials or no server: retried, and given up after the last attempt", async () => {
    const wrongPassword = smtpTransport(smtp.url.replace("smtp-secret", "not-it"), FROM);
    const nowhere = smtpTransport("smtp://mailer:x@127.0.0.1:9", FROM, { timeoutMs: 2_000 });
    try {
      const { id } = await queue("nowhere@example.test", "ccc333");
      expect(await sendDueMail({ ...options(), transport: wrongPassword })).toBe(1);
      expect(await rowOf(id)).toMatchObject({ status: "PENDING", attempts: 1 });
      expect((await rowOf(id)).lastError).toMatch(/auth|Invalid/i);
      await db.mailMessage.update({
        where: { id },
        data: { attempts: MAX_MAIL_ATTEMPTS - 1, nextAttemptAt: new Date(Date.now() - 1_000) },
      });
      expect(await sendDueMail({ ...options(), transport: nowhere })).toBe(1);
      const row = await rowOf(id);
      expect(row.status).toBe("FAILED");
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
      expect(smtp.received.some((m) => m.to.includes("nowhere@example.test"))).toBe(false);
    } finally {
      wrongPassword.close();
      nowhere.close();
    }
  });
});

it("a rolled-back change queues nothing", async () => {
  const to = "rolled-back@example.test";
  await expect(
    db.$transaction(async (tx) => {
      await queueMail(tx, mail(to, "ddd444"));
      throw new Error("the change failed");
    }),
  ).rejects.toThrow("the change failed");
  expect(await db.mailMessage.count({ where: { to } })).toBe(0);
});

it("without SMTP_URL the email is logged and kept, links readable, for mail:list", async () => {
  const to = "local@example.test";
  const { id } = await queue(to, "eee555");
  expect(await sendDueMail({ ...options(), transport: logTransport() })).toBe(1);
  const [listed] = await listMail({ limit: 5, to });
  expect(listed).toMatchObject({ id, status: "LOGGED", subject: "Join Test Co eee555" });
  // Stored encrypted, never in the clear.
  expect(listed?.body).not.toContain("eee555");
  expect(linksIn(openBody(listed?.body ?? "")?.text ?? "")).toEqual([link("eee555")]);
});

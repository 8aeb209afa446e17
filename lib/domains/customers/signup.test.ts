// A sign-up with an email that already has an account (docs/security.md "Sign-up"): no
// second account and no answer that says the email is taken; the address's owner gets an
// email, over a real SMTP server, that points them to sign in or reset their password.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { SignupInput } from "@/lib/domains/auth/schemas";
import { smtpTransport } from "@/lib/domains/mail/transport";
import { sendDueMail } from "@/lib/domains/mail/worker";
import { startSmtpServer, type TestSmtpServer } from "@/test/smtp-server";
import { SIGNUP_EMAIL_SENT, signUp } from "./signup";

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const address = () => `owner-${Math.random().toString(16).slice(2, 10)}@example.test`;
let ip = 0;
const nextIp = () => `203.0.113.${++ip}`;

describe("signing up with a taken email", () => {
  it("creates nothing, says nothing about the email, and emails its owner how to sign in or reset", async () => {
    const email = address();
    const first = await signUp(
      SignupInput.parse({ company: "Taken Co", email, password: "a-long-password" }),
      nextIp(),
    );
    if (first.status !== "created") throw new Error("the first sign-up created no account");
    const again = await signUp(
      SignupInput.parse({ company: "Second Try Co", email: email.toUpperCase(), password: "a-guessed-password" }),
      nextIp(),
    );
    expect(again).toEqual({ status: "email_sent" });
    expect(SIGNUP_EMAIL_SENT).not.toMatch(/already|exists|account/i);
    expect(await db.customer.count({ where: { name: "Second Try Co" } })).toBe(0);

    const transport = smtpTransport(smtp.url, "Switchboard <no-reply@switchboard.test>");
    try {
      expect(await sendDueMail({ transport, customerIds: [first.customer.id] })).toBe(1);
    } finally {
      transport.close();
    }
    const got = await smtp.waitFor((m) => m.to.includes(email));
    expect(got.subject).toBe("You already have a Switchboard account");
    expect(got.raw).toContain("http://localhost:3000/login");
    expect(got.raw).toContain("http://localhost:3000/forgot-password");
    expect(got.raw).not.toContain("a-guessed-password");
  });

  it("a suspended account's email gets the same answer and no email (as a reset request)", async () => {
    const email = address();
    const first = await signUp(
      SignupInput.parse({ company: "Paused Co", email, password: "a-long-password" }),
      nextIp(),
    );
    if (first.status !== "created") throw new Error("the first sign-up created no account");
    await db.customer.update({ where: { id: first.customer.id }, data: { status: "SUSPENDED" } });
    const again = await signUp(
      SignupInput.parse({ company: "Paused Again", email, password: "a-long-password" }),
      nextIp(),
    );
    expect(again).toEqual({ status: "email_sent" });
    expect(await db.mailMessage.count({ where: { to: email } })).toBe(0);
  });
});

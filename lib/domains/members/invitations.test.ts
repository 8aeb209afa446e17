// Invitations (docs/members.md): accepted once, within 7 days, stored as a hash; resend
// replaces the link, revoke ends it; the invitee joins with the invited role and senders.
// One invitation goes the whole way over SMTP to a real server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { smtpTransport } from "@/lib/domains/mail/transport";
import { sendDueMail } from "@/lib/domains/mail/worker";
import { checkCredentials } from "@/lib/domains/security/credentials";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { createMemberOf, latestLinkTo, signedInSession, tokenOf } from "@/test/member-fixtures";
import { startSmtpServer, type TestSmtpServer } from "@/test/smtp-server";
import {
  acceptInvitation,
  createInvitation,
  hashInvitationToken,
  invitationForToken,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from "./invitations";

let c: TestCustomer;
let owner: Principal;
let admin: Principal;
const PASSWORD = "the invitee's password";
const email = (what: string) => `${what}-${Math.random().toString(16).slice(2, 10)}@example.test`;

async function principalOf(m: { session: { userId: string; customerId: string } }): Promise<Principal> {
  const p = await principalForSession(m.session);
  if (!p) throw new Error("no session");
  return p;
}

beforeAll(async () => {
  c = await createTestCustomer();
  owner = await principalOf(await createMemberOf(c.customer.id, "owner"));
  admin = await principalOf(await createMemberOf(c.customer.id, "admin"));
});

describe("accepting", () => {
  it("the emailed link joins the account once, with the invited role and senders", async () => {
    const to = email("agent");
    const invitation = await createInvitation(owner, { email: to, role: "agent", senders: [c.sender.phoneNumber] });
    expect(invitation).toMatchObject({ email: to, role: "agent", senderPhones: [c.sender.phoneNumber] });
    const link = await latestLinkTo(to);
    expect(link).toMatch(/^http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(link);
    expect(await invitationForToken(token)).toMatchObject({ state: "pending", email: to, role: "agent" });

    // Stored as a hash only: neither the invitation row nor the outbox holds the token in the clear.
    const row = await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const mail = await db.mailMessage.findFirstOrThrow({ where: { to } });
    expect(JSON.stringify(mail)).not.toContain(token);

    expect(await acceptInvitation(token, { name: "Ann Agent", password: PASSWORD })).toMatchObject({
      email: to,
      customerId: c.customer.id,
    });
    const user = await checkCredentials(to, PASSWORD);
    expect(user?.customerId).toBe(c.customer.id);
    const joined = await principalForSession(await signedInSession(user?.id ?? "", c.customer.id));
    expect(joined?.member).toMatchObject({ role: "agent", name: "Ann Agent", senderIds: [c.sender.id] });

    // Single use: the second time is refused and changes nothing.
    await expect(acceptInvitation(token, { password: "another password" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("already used"),
    });
    expect(await checkCredentials(to, PASSWORD)).not.toBeNull();
    expect(await invitationForToken(token)).toMatchObject({ state: "accepted" });
    expect((await listInvitations(owner)).map((i) => i.email)).not.toContain(to);
  });

  it("two acceptances at once: one member, one refusal", async () => {
    const to = email("race");
    await createInvitation(owner, { email: to, role: "developer", senders: [] });
    const token = tokenOf(await latestLinkTo(to));
    const outcomes = await Promise.allSettled([
      acceptInvitation(token, { password: PASSWORD }),
      acceptInvitation(token, { password: `${PASSWORD} 2` }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await db.user.count({ where: { email: to } })).toBe(1);
  });

  it("after 7 days the link is refused and nobody joins", async () => {
    const to = email("late");
    const inv = await createInvitation(owner, { email: to, role: "billing", senders: [] });
    const token = tokenOf(await latestLinkTo(to));
    expect(inv.expiresAt.getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    await db.invitation.update({ where: { id: inv.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await invitationForToken(token)).toMatchObject({ state: "expired" });
    await expect(acceptInvitation(token, { password: PASSWORD })).rejects.toMatchObject({
      message: expect.stringContaining("expired"),
    });
    expect(await db.user.count({ where: { email: to } })).toBe(0);
    // Resending gives a new link with 7 more days; the old one stays dead.
    await resendInvitation(owner, inv.id);
    const fresh = tokenOf(await latestLinkTo(to));
    expect(fresh).not.toBe(token);
    await expect(acceptInvitation(token, { password: PASSWORD })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await acceptInvitation(fresh, { password: PASSWORD });
    expect((await db.user.findUniqueOrThrow({ where: { email: to } })).role).toBe("billing");
  });

  it("a revoked invitation's link is refused; a made-up link is refused", async () => {
    const to = email("revoked");
    const inv = await createInvitation(admin, { email: to, role: "agent", senders: [] });
    const token = tokenOf(await latestLinkTo(to));
    await revokeInvitation(admin, inv.id);
    await expect(acceptInvitation(token, { password: PASSWORD })).rejects.toMatchObject({
      message: expect.stringContaining("revoked"),
    });
    expect(await invitationForToken("A".repeat(43))).toBeNull();
    await expect(acceptInvitation("A".repeat(43), { password: PASSWORD })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await db.user.count({ where: { email: to } })).toBe(0);
  });
});

describe("inviting", () => {
  it("an admin cannot invite an owner, resend or revoke an owner's invitation", async () => {
    await expect(createInvitation(admin, { email: email("boss"), role: "owner", senders: [] })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    const inv = await createInvitation(owner, { email: email("co-owner"), role: "owner", senders: [] });
    await expect(resendInvitation(admin, inv.id)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(revokeInvitation(admin, inv.id)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });

  it("refuses a member's email, a second open invitation and another account's invitation id", async () => {
    const member = await createMemberOf(c.customer.id, "developer");
    await expect(createInvitation(owner, { email: member.email, role: "agent", senders: [] })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const to = email("twice");
    const inv = await createInvitation(owner, { email: to, role: "agent", senders: [] });
    await expect(createInvitation(owner, { email: to, role: "agent", senders: [] })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const other = await createTestCustomer();
    const stranger = await principalOf(await createMemberOf(other.customer.id, "owner"));
    await expect(revokeInvitation(stranger, inv.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resendInvitation(stranger, inv.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.mailMessage.count({ where: { to } })).toBe(1);
  });

  it.each(["developer", "agent", "billing"] as const)("a %s cannot invite", async (role) => {
    const p = await principalOf(await createMemberOf(c.customer.id, role));
    const to = email("nope");
    await expect(createInvitation(p, { email: to, role: "agent", senders: [] })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    expect(await db.invitation.count({ where: { email: to } })).toBe(0);
  });
});

describe("over SMTP", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("the invitation reaches a real SMTP server, and its link joins", async () => {
    const t = await createTestCustomer();
    const p = await principalOf(await createMemberOf(t.customer.id, "owner"));
    const to = email("smtp");
    await createInvitation(p, { email: to, role: "developer", senders: [] });
    const transport = smtpTransport(smtp.url, "Switchboard <no-reply@switchboard.test>");
    try {
      expect(await sendDueMail({ transport, customerIds: [t.customer.id] })).toBe(1);
    } finally {
      transport.close();
    }
    const got = await smtp.waitFor((m) => m.to.includes(to));
    expect(got.subject).toBe(`You are invited to join ${t.customer.name} on Switchboard`);
    const link = /http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{43}/.exec(got.raw)?.[0];
    expect(link).toBeDefined();
    await acceptInvitation(tokenOf(link ?? ""), { password: PASSWORD });
    expect(await checkCredentials(to, PASSWORD)).toMatchObject({ customerId: t.customer.id });
  });

  it("an email with an account elsewhere: the owner sees only an invitation sent and pending; its owner is told why it cannot join", async () => {
    const t = await createTestCustomer();
    const p = await principalOf(await createMemberOf(t.customer.id, "owner"));
    const taken = (await createMemberOf(c.customer.id, "developer")).email;
    const fresh = email("fresh");
    // The same answer for a taken email and a fresh one: made, pending, listed.
    const toTaken = await createInvitation(p, { email: taken, role: "developer", senders: [] });
    const toFresh = await createInvitation(p, { email: fresh, role: "developer", senders: [] });
    const shape = (i: typeof toTaken) => ({ ...i, id: "", email: "", createdAt: null, expiresAt: null });
    expect(shape(toTaken)).toEqual(shape(toFresh));
    const listed = await listInvitations(p);
    expect(listed.filter((i) => [taken, fresh].includes(i.email)).map((i) => i.email)).toEqual([fresh, taken]);
    await resendInvitation(p, toTaken.id);

    const transport = smtpTransport(smtp.url, "Switchboard <no-reply@switchboard.test>");
    try {
      expect(await sendDueMail({ transport, customerIds: [t.customer.id] })).toBe(3);
    } finally {
      transport.close();
    }
    const got = (await smtp.waitFor((m) => m.to.includes(taken))).raw;
    expect(got).toContain(`${taken} already has a Switchboard account`);
    expect(got).toContain("ask them to invite another address");
    expect(got).not.toMatch(/\/invite\//);
    expect(smtp.received.filter((m) => m.to.includes(taken))).toHaveLength(2);
    // The taken email's own account is untouched.
    expect(await db.user.findUniqueOrThrow({ where: { email: taken } })).toMatchObject({ customerId: c.customer.id });
  });
});

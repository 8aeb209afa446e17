// The operator CLI's member and email commands (in process: the same entry point as
// `npm run -s cli --`): user:create --role/--senders, and mail:list showing an email's link.
import { describe, expect, it } from "vitest";
import { runCli } from "@/lib/cli/run";
import { db } from "@/lib/db";
import { queueMail } from "@/lib/domains/mail/outbox";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { createTestCustomer } from "./factory";
import { signedInSession } from "./member-fixtures";

async function cli(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli([...args, "--json"], {
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
  });
  return { code, stderr, json: stdout ? JSON.parse(stdout) : null };
}

const email = (what: string) => `${what}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.test`;

describe("user:create", () => {
  it("makes an owner by default, and an agent limited to the senders named", async () => {
    const t = await createTestCustomer();
    const owner = await cli(
      "user:create",
      "--customer",
      t.customer.id,
      "--email",
      email("o"),
      "--password",
      "a long password",
    );
    expect(owner.code).toBe(0);
    expect(owner.json).toMatchObject({ role: "owner", senders: null });

    const agent = await cli(
      ...["user:create", "--customer", t.customer.id, "--email", email("a"), "--password", "a long password"],
      ...["--role", "agent", "--senders", `${t.sender.phoneNumber}, ${t.otherSender.phoneNumber}`],
    );
    expect(agent.code).toBe(0);
    expect(agent.json).toMatchObject({ role: "agent" });
    const p = await principalForSession(await signedInSession(agent.json.userId, t.customer.id));
    expect(p?.member?.role).toBe("agent");
    expect([...(p?.member?.senderIds ?? [])].sort()).toEqual([t.sender.id, t.otherSender.id].sort());
  });

  it.each([
    [["--role", "boss"], "--role: must be one of owner, admin, developer, agent, billing"],
    [["--role", "developer", "--senders", "+15550001234"], "--senders: only an agent can be limited to senders"],
    [["--role", "agent", "--senders", "call-me"], "--senders: must be E.164 numbers"],
  ])("refuses %j naming the flag", async (extra, message) => {
    const t = await createTestCustomer();
    const run = await cli(
      "user:create",
      "--customer",
      t.customer.id,
      "--email",
      email("x"),
      "--password",
      "a long password",
      ...extra,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("refuses another account's sender and creates nobody", async () => {
    const t = await createTestCustomer();
    const other = await createTestCustomer();
    const address = email("stranger");
    const run = await cli(
      ...["user:create", "--customer", t.customer.id, "--email", address, "--password", "a long password"],
      ...["--role", "agent", "--senders", other.sender.phoneNumber],
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--senders: ${other.sender.phoneNumber} is not a sender of this account`);
    expect(await db.user.count({ where: { email: address } })).toBe(0);
  });
});

it("mail:list shows a queued email with its link, newest first", async () => {
  const to = email("invitee");
  await db.$transaction((tx) =>
    queueMail(tx, {
      kind: "invitation",
      to,
      subject: "Join us",
      text: "Open http://localhost:3000/invite/tok123 now.",
    }),
  );
  const run = await cli("mail:list", "--to", to);
  expect(run.code).toBe(0);
  expect(run.json.mail).toHaveLength(1);
  expect(run.json.mail[0]).toMatchObject({
    to,
    subject: "Join us",
    status: "pending",
    links: ["http://localhost:3000/invite/tok123"],
  });
  const bad = await cli("mail:list", "--limit", "0");
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--limit: must be at least 1");
});

describe("user:2fa-off", () => {
  it("turns off a member's two-factor, ends their sessions and emails them; says so when it was off", async () => {
    const { beginTwoFactorSetup, confirmTwoFactor } = await import("@/lib/domains/security/two-factor");
    const { totpCode } = await import("@/lib/domains/security/totp");
    const { createMemberOf } = await import("./member-fixtures");
    const t = await createTestCustomer();
    const m = await createMemberOf(t.customer.id, "developer");
    const p = await principalForSession(m.session);
    if (!p) throw new Error("no principal");
    const { secret } = await beginTwoFactorSetup(p);
    await confirmTwoFactor(p, totpCode(secret));

    const off = await cli("user:2fa-off", "--email", m.email.toUpperCase());
    expect(off.code).toBe(0);
    expect(off.json).toMatchObject({ turnedOff: true });
    expect(await principalForSession(m.session)).toBeNull();
    const user = await db.user.findUniqueOrThrow({ where: { id: m.userId } });
    expect(user).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    const again = await cli("user:2fa-off", "--email", m.email);
    expect(again.json).toMatchObject({ turnedOff: false });
    const unknown = await cli("user:2fa-off", "--email", email("nobody"));
    expect(unknown.code).not.toBe(0);
  });
});

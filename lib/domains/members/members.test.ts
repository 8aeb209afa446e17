// Members (docs/members.md): at least one owner always remains (also when two owners demote
// each other at once), an admin never touches an owner, agents' senders must be the
// account's, roles without "members" are refused, and the migration made existing users owners.
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { readMigrations } from "@/lib/db/migrate";
import type { Principal } from "@/lib/domains/auth/principal";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { changeMember, listMembers, memberByEmail, removeMember } from "./service";

async function principalOf(m: TestMember): Promise<Principal> {
  const p = await principalForSession(m.session);
  if (!p) throw new Error(`${m.email} has no session`);
  return p;
}

const roleOf = async (m: TestMember) => (await db.user.findUnique({ where: { id: m.userId } }))?.role;

let c: TestCustomer;
beforeAll(async () => {
  c = await createTestCustomer();
});

describe("the last owner", () => {
  it("can neither step down nor be removed while no other owner exists", async () => {
    const t = await createTestCustomer();
    const owner = await createMemberOf(t.customer.id, "owner");
    const p = await principalOf(owner);
    await expect(changeMember(p, owner.userId, { role: "admin", senders: [] })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(removeMember(p, owner.userId)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await roleOf(owner)).toBe("owner");
    // With a second owner, stepping down works.
    const second = await createMemberOf(t.customer.id, "owner");
    await changeMember(p, owner.userId, { role: "admin", senders: [] });
    expect(await roleOf(owner)).toBe("admin");
    await expect(removeMember(await principalOf(second), second.userId)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("two owners demoting each other at once: one wins, one owner remains", async () => {
    const t = await createTestCustomer();
    const a = await createMemberOf(t.customer.id, "owner");
    const b = await createMemberOf(t.customer.id, "owner");
    const [pa, pb] = [await principalOf(a), await principalOf(b)];
    const outcomes = await Promise.allSettled([
      changeMember(pa, b.userId, { role: "developer", senders: [] }),
      changeMember(pb, a.userId, { role: "developer", senders: [] }),
      removeMember(pa, b.userId),
      removeMember(pb, a.userId),
    ]);
    expect(outcomes.some((o) => o.status === "fulfilled")).toBe(true);
    expect(await db.user.count({ where: { customerId: t.customer.id, role: "owner" } })).toBe(1);
  });
});

describe("an admin", () => {
  let owner: TestMember;
  let admin: TestMember;
  let developer: TestMember;
  beforeAll(async () => {
    owner = await createMemberOf(c.customer.id, "owner");
    admin = await createMemberOf(c.customer.id, "admin");
    developer = await createMemberOf(c.customer.id, "developer");
  });

  it("cannot change or remove an owner, nor make anyone an owner", async () => {
    const p = await principalOf(admin);
    await expect(changeMember(p, owner.userId, { role: "admin", senders: [] })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    await expect(removeMember(p, owner.userId)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(changeMember(p, developer.userId, { role: "owner", senders: [] })).rejects.toMatchObject({
      code: "PERMISSION_DENIED",
    });
    expect(await roleOf(owner)).toBe("owner");
    expect(await roleOf(developer)).toBe("developer");
  });

  it("makes a developer an agent on one of the account's senders, not another account's", async () => {
    const p = await principalOf(admin);
    const other = await createTestCustomer();
    const refused = changeMember(p, developer.userId, { role: "agent", senders: [other.sender.phoneNumber] });
    await expect(refused).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    const row = await changeMember(p, developer.userId, { role: "agent", senders: [c.sender.phoneNumber] });
    expect(row.role).toBe("agent");
    const member = (await principalOf(developer)).member;
    expect(member).toMatchObject({ role: "agent", senderIds: [c.sender.id] });
    // Back to developer: no sender limit is left behind.
    await changeMember(p, developer.userId, { role: "developer", senders: [c.sender.phoneNumber] });
    expect((await principalOf(developer)).member?.senderIds).toBeNull();
  });

  it("cannot reach another account's member", async () => {
    const other = await createTestCustomer();
    const stranger = await createMemberOf(other.customer.id, "developer");
    const p = await principalOf(admin);
    await expect(changeMember(p, stranger.userId, { role: "agent", senders: [] })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(removeMember(p, stranger.userId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await roleOf(stranger)).toBe("developer");
    expect((await listMembers(p)).map((m) => m.email)).not.toContain(stranger.email);
  });
});

it("memberByEmail reads a member as the session does: role and an agent's senders; another account's is null", async () => {
  const agent = await createMemberOf(c.customer.id, "agent", [c.sender.phoneNumber]);
  expect(await memberByEmail(c.customer.id, agent.email.toUpperCase())).toEqual((await principalOf(agent)).member);
  expect(await memberByEmail(c.customer.id, agent.email)).toMatchObject({ role: "agent", senderIds: [c.sender.id] });
  const other = await createTestCustomer();
  expect(await memberByEmail(other.customer.id, agent.email)).toBeNull();
});

it.each(["developer", "agent", "billing"] as const)("a %s cannot manage members", async (role) => {
  const m = await createMemberOf(c.customer.id, role);
  const p = await principalOf(m);
  await expect(listMembers(p)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  await expect(removeMember(p, m.userId)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  await expect(changeMember(p, m.userId, { role: "owner", senders: [] })).rejects.toMatchObject({
    code: "PERMISSION_DENIED",
  });
  expect(await roleOf(m)).toBe(role);
});

it("the members migration makes every existing user an owner", async () => {
  const migration = readMigrations().find((m) => m.name.endsWith("_members"));
  if (!migration) throw new Error("no members migration");
  // In a schema of its own, rolled back: the tables it alters or refers to as the earlier
  // migrations left them (the columns it touches), a user, then the migration.
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query(`CREATE SCHEMA "members_migration"; SET LOCAL search_path TO "members_migration"`);
    await client.query(`CREATE TABLE "Customer" ("id" TEXT PRIMARY KEY);
      CREATE TABLE "Sender" ("id" TEXT PRIMARY KEY);
      CREATE TABLE "User" ("id" TEXT PRIMARY KEY, "customerId" TEXT NOT NULL, "email" TEXT NOT NULL);
      INSERT INTO "Customer" VALUES ('c1');
      INSERT INTO "User" VALUES ('u1', 'c1', 'old@example.test');`);
    await client.query(migration.sql);
    const { rows } = await client.query(`SELECT "role"::text AS role, "sendersLimited" FROM "User" WHERE "id" = 'u1'`);
    expect(rows).toEqual([{ role: "owner", sendersLimited: false }]);
  } finally {
    await client.query("ROLLBACK").catch(() => {});
    await client.end();
  }
});

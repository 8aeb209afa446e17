// The operator CLI end to end: each call spawns `tsx scripts/cli.ts ... --json` against the
// test database, the way an operator runs `npm run -s cli -- ...`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/domains/auth/password";
import { verifyToken } from "@/lib/domains/tokens/service";
import { cli, cliInProcess, cliJson, type Run, spawnCli } from "./cli-process";
import { createTestCustomer, uniquePhone } from "./factory";
import { tokenChangesPropagated } from "./token-propagation";

/** Runs the CLI and returns what it printed and the modules it loaded (test/load-recorder.mjs). */
async function cliLoads(...args: string[]): Promise<Run & { modules: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-loads-"));
  const file = path.join(dir, "modules.txt");
  try {
    const run = await spawnCli(args, {
      nodeArgs: ["--import", "./test/load-recorder.mjs"],
      env: { LOAD_RECORD_FILE: file },
    });
    const modules = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
    return { ...run, modules };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Modules of the database layer, the Prisma client, the drivers, zod and the services. */
const DATABASE_CODE =
  /\/lib\/(db|env|generated|customers|senders|tokens|events)\b|node_modules\/(@prisma|pg|@electric-sql|zod)\//;

const str = (v: unknown): string => {
  expect(typeof v).toBe("string");
  return v as string;
};

describe("operator CLI", { timeout: 180_000 }, () => {
  it("sender:default makes one sender the default (in process)", async () => {
    const t = await createTestCustomer();
    const made = await cliInProcess(
      "sender:default",
      "--customer",
      t.customer.id,
      "--phone",
      t.otherSender.phoneNumber,
      "--json",
    );
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ phoneNumber: t.otherSender.phoneNumber, isDefault: true });
    const defaults = await db.sender.findMany({ where: { customerId: t.customer.id, isDefault: true } });
    expect(defaults.map((s) => s.id)).toEqual([t.otherSender.id]);
    const unknown = await cliInProcess("sender:default", "--customer", t.customer.id, "--phone", uniquePhone());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--phone:");
  });

  it("creates a customer, senders, tokens and a user, and revokes a token", async () => {
    const created = await cliJson("customer:create", "--name", "CLI Round Trip", "--plan", "starter");
    const customerId = str(created.customerId);
    expect(created).toMatchObject({ name: "CLI Round Trip", plan: "starter" });

    const phoneA = uniquePhone();
    const phoneB = uniquePhone();
    const a = await cliJson(
      "sender:add",
      "--customer",
      customerId,
      "--phone",
      phoneA,
      "--phone-number-id",
      `9${Date.now()}`,
    );
    expect(a).toMatchObject({ phoneNumber: phoneA, isDefault: true, setupComplete: true, customerId });
    // A sender on a (simulated) business account: its approved sample hello_world at once.
    const withAccount = await cliJson(
      "sender:add",
      "--customer",
      customerId,
      "--phone",
      uniquePhone(),
      "--phone-number-id",
      `8${Date.now()}`,
      "--waba-id",
      `7${Date.now()}`,
    );
    expect(withAccount).toMatchObject({ setupComplete: true });
    expect(
      await db.template.findFirst({ where: { customerId, name: "hello_world", status: "APPROVED" } }),
    ).not.toBeNull();
    // The second sender is added as default: the first stops being default.
    const b = await cliJson("sender:add", "--customer", customerId, "--phone", phoneB, "--default");
    expect(b).toMatchObject({ phoneNumber: phoneB, isDefault: true, setupComplete: false, phoneNumberId: null });
    const senders = await db.sender.findMany({ where: { customerId }, orderBy: { createdAt: "asc" } });
    expect(
      senders.filter((s) => s.phoneNumber !== withAccount.phoneNumber).map((s) => [s.phoneNumber, s.isDefault]),
    ).toEqual([
      [phoneA, false],
      [phoneB, true],
    ]);

    const taken = await cliInProcess("sender:add", "--customer", customerId, "--phone", phoneA);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain(`--phone: ${phoneA} is already connected`);
    const pnid = str(a.phoneNumberId);
    const takenId = await cliInProcess(
      "sender:add",
      "--customer",
      customerId,
      "--phone",
      uniquePhone(),
      "--phone-number-id",
      pnid,
    );
    expect(takenId.stderr).toContain("--phone-number-id: is already used by another sender");
    expect(await db.sender.count({ where: { customerId } })).toBe(3); // A, B and the one on a business account

    const global = await cliJson("token:create", "--customer", customerId, "--name", "ci global");
    const token = str(global.token);
    expect(token).toMatch(/^swb_live_/);
    expect(global).toMatchObject({ scope: "global", senderId: null, name: "ci global" });
    const verified = await verifyToken(token);
    expect(verified.principal).toMatchObject({ customerId, plan: "starter", tokenId: global.tokenId });

    const scoped = await cliJson("token:create", "--customer", customerId, "--sender", phoneA);
    expect(scoped).toMatchObject({ scope: "number", senderId: a.senderId, senderPhoneNumber: phoneA });
    expect((await verifyToken(str(scoped.token))).principal.scopedSenderId).toBe(a.senderId);
    // A restricted token (docs/tokens.md "Restricted tokens"): only the permissions named.
    expect(global).toMatchObject({ permissions: "all" });
    const restricted = await cliJson(
      "token:create",
      "--customer",
      customerId,
      "--permissions",
      "billing, messages.read",
    );
    expect(restricted).toMatchObject({ permissions: ["messages.read", "billing"] });
    expect((await verifyToken(str(restricted.token))).principal.permissions).toEqual(["messages.read", "billing"]);

    const revoked = await cliJson("token:revoke", str(global.tokenId));
    expect(revoked).toMatchObject({ tokenId: global.tokenId, alreadyRevoked: false });
    expect(str(revoked.revokedAt)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The CLI is another process: its change reaches this process's token cache by NOTIFY.
    await tokenChangesPropagated();
    await expect(verifyToken(token)).rejects.toMatchObject({ code: "INVALID_AUTH_TOKEN" });
    const twice = await cliInProcess("token:revoke", str(global.tokenId), "--json");
    expect(JSON.parse(twice.stdout)).toMatchObject({ alreadyRevoked: true });
    // The scoped token is untouched.
    expect((await verifyToken(str(scoped.token))).record.id).toBe(scoped.tokenId);

    // Rotation: a successor with the same scope, printed once; the old token works for the grace.
    const rotated = await cliJson("token:rotate", str(scoped.tokenId), "--grace-hours", "2");
    expect(rotated).toMatchObject({ previousTokenId: scoped.tokenId, senderId: a.senderId, customerId });
    await tokenChangesPropagated();
    const graceEnd = Date.parse(str(rotated.previousExpiresAt));
    expect(graceEnd - Date.now()).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(graceEnd - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
    expect((await verifyToken(str(rotated.token))).principal.scopedSenderId).toBe(a.senderId);
    expect((await verifyToken(str(scoped.token))).record.id).toBe(scoped.tokenId);
    await expect(verifyToken(str(scoped.token), new Date(graceEnd + 1000))).rejects.toMatchObject({
      code: "INVALID_AUTH_TOKEN",
    });

    const email = `ops-${Date.now()}@Example.com`;
    const user = await cliJson(
      "user:create",
      "--customer",
      customerId,
      "--email",
      email,
      "--password",
      "a long password 1",
    );
    expect(user).toMatchObject({ customerId, email: email.toLowerCase() });
    const row = await db.user.findUniqueOrThrow({ where: { id: str(user.userId) } });
    expect(row.passwordHash.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(row.passwordHash, "a long password 1")).toBe(true);

    const duplicate = await cliInProcess(
      "user:create",
      "--customer",
      customerId,
      "--email",
      email,
      "--password",
      "another password",
    );
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain("--email: a user with this email already exists");

    const rate = await cliJson("rates:set", "--category", "Marketing", "--rate", "0.0311", "--customer", customerId);
    expect(rate).toMatchObject({
      scope: customerId,
      customerId,
      pricingCategory: "marketing",
      rate: "0.0311",
      currency: "USD",
    });
    const again = await cliInProcess(
      "rates:set",
      "--category",
      "marketing",
      "--rate",
      "0.03",
      "--customer",
      customerId,
      "--json",
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ rateCardId: rate.rateCardId, rate: "0.03" });
  });

  it.each([
    [["customer:create"], "--name: is required"],
    [["customer:create", "--name", "X", "--plan", "gold"], "--plan: must be starter or pro"],
    [["sender:add", "--customer", "c1", "--phone", "call-me"], '--phone: "call-me" is not a phone number'],
  ])("rejects %j naming the argument (spawned)", async (args, message) => {
    const run = await cli(...args, "--json");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { message: expect.stringContaining(message) } });
  });

  it.each([
    [["customer:create"], "--name: is required"],
    [["customer:create", "--name", "X", "--plan", "gold"], "--plan: must be starter or pro"],
    [["customer:create", "--name", "X", "--colour", "red"], "--colour: unknown option"],
    [["sender:add", "--customer", "c1", "--phone", "call-me"], '--phone: "call-me" is not a phone number'],
    // The one phone parser: a number without "+" is refused, not read as another country's.
    [
      ["sender:add", "--customer", "c1", "--phone", "555 000 1234"],
      '--phone: "555 000 1234" is not an international number: start it with + and the country code',
    ],
    [["sender:add", "--phone", "+15550001234"], "--customer: is required"],
    [["sender:add", "--customer", "no-such-customer", "--phone", "+15550001234"], "--customer: no customer with id"],
    [["token:create", "--customer"], "--customer: needs a value"],
    [["token:create", "--customer", "no-such-customer"], "--customer: no customer with id"],
    [
      ["token:create", "--customer", "c1", "--permissions", "billing,everything"],
      "--permissions: Choose all permissions, or at least one of: messages.send",
    ],
    [["token:revoke"], "TOKEN_ID: is required"],
    [["token:revoke", "no-such-token"], "TOKEN_ID: no customer token with id no-such-token"],
    [["token:rotate", "no-such-token"], "TOKEN_ID: no customer token with id no-such-token"],
    [["token:rotate", "t1", "--grace-hours", "169"], "--grace-hours: must be at most 168 hours (7 days)"],
    [
      ["user:create", "--customer", "c1", "--email", "nope", "--password", "long enough pw"],
      "--email: must be an email",
    ],
    [
      ["user:create", "--customer", "c1", "--email", "a@b.co", "--password", "short"],
      "--password: must be at least 10",
    ],
    [["rates:set", "--category", "bogus", "--rate", "1"], "--category: must be one of marketing"],
    [["rates:set", "--category", "utility", "--rate=-1"], "--rate: must be a non-negative amount"],
    [["rates:set", "--category", "utility", "--rate", "-1"], "--rate: needs a value"],
    [
      ["sender:add", "--customer", "c1", "--phone", "+15550001234", "--default=yes"],
      "--default: does not take a value",
    ],
    [
      ["rates:set", "--category", "utility", "--rate", "0.01", "--customer", "nobody"],
      "--customer: no customer with id",
    ],
    [["demo:seed", "--billing-records", "many"], "--billing-records: must be a whole number"],
  ])("rejects %j naming the argument", async (args, message) => {
    const run = await cliInProcess(...args, "--json");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { message: expect.stringContaining(message) } });
  });

  it("prints the usage for an unknown command or none", async () => {
    const unknown = await cli("customer:delete", "--name", "X");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "customer:delete"');
    expect(unknown.stderr).toContain("Usage: npm run -s cli -- <command>");
    for (const name of [
      "customer:create",
      "sender:add",
      "token:create",
      "token:revoke",
      "user:create",
      "rates:set",
      "demo:seed",
    ]) {
      expect(unknown.stderr).toContain(name);
    }
    const none = await cliInProcess();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage:");
  });

  it("answers --help, a command's --help and an unknown command without loading database code", async () => {
    const help = await cliLoads("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("callbacks:dead");
    const commandHelp = await cliLoads("token:rotate", "--help");
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain("Usage: npm run -s cli -- token:rotate TOKEN_ID [--grace-hours N]");
    const unknown = await cliLoads("customer:delete");
    expect(unknown.code).toBe(2);
    for (const run of [help, commandHelp, unknown]) {
      expect(run.modules.some((m) => m.endsWith("/lib/cli/run.ts"))).toBe(true); // the recorder works
      expect(run.modules.filter((m) => DATABASE_CODE.test(m))).toEqual([]);
    }
    // A command that reads the database loads its own module and the pg pool, not the others'.
    // callbacks:dead runs only hotRows: no Prisma client, no query compiler, no logger
    // (lib/db/pool.ts; docs/benchmarks.md "The operator CLI").
    const dead = await cliLoads("callbacks:dead", "--limit", "1", "--json");
    expect(dead.stderr).toBe("");
    expect(dead.code).toBe(0);
    expect(dead.modules.some((m) => m.endsWith("/lib/db/pool.ts"))).toBe(true);
    expect(dead.modules.some((m) => /node_modules\/pg\//.test(m))).toBe(true); // the recorder sees packages
    expect(
      dead.modules.filter((m) => /\/lib\/(db|log)\.ts$|\/lib\/generated\/|node_modules\/(@prisma|pino)\//.test(m)),
    ).toEqual([]);
    expect(dead.modules.some((m) => m.endsWith("/lib/cli/callbacks-dead-command.ts"))).toBe(true);
    expect(dead.modules.filter((m) => /\/lib\/cli\/(token|user|sender|demo|simulate)-/.test(m))).toEqual([]);
    expect(dead.modules.filter((m) => /\/lib\/events\/ingest\/process-batch|@electric-sql\/pglite/.test(m))).toEqual(
      [],
    );
  });

  it("prints a human summary without --json and the token only once", async () => {
    const run = await cliInProcess("customer:create", "--name", "Human Output Co");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created customer Human Output Co \(pro\): \S+\n$/);
  });
});

// Signed provider callbacks are never dropped: text PostgreSQL cannot store (NUL, lone
// surrogates) is replaced by U+FFFD and applied; what still fails after every retry lands
// in the dead-letter list, which the operator CLI lists and retries.
import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadCommand } from "@/lib/cli/commands";
import { db } from "@/lib/db";
import { cleanCallbackBody } from "@/lib/domains/provider/callbacks/clean";
import { MAX_ATTEMPTS, processPendingCallbacks } from "@/lib/ingest/process-batch";
import { fixture, postProvider, sentMessages } from "./events-helpers";
import { createTestCustomer } from "./factory";

const newTag = () => `${randomInt(100_000, 999_999)}d`;

async function drain() {
  for (let i = 0; i < 50; i++) {
    const r = await processPendingCallbacks(200);
    if (r.callbacks === 0 && r.failed === 0) return;
  }
}

async function command(name: string) {
  const loaded = await loadCommand(name);
  if (!loaded) throw new Error(`no command ${name}`);
  return loaded;
}

const cli = async (name: string, argv: string[]) => (await command(name)).prepare(argv)();

describe("callback text cleaning", () => {
  it("replaces NUL and lone surrogates, keeps pairs and ordinary bodies untouched", () => {
    const ordinary = '{"a":"caf\\u00e9 \\ud83d\\ude00"}';
    expect(cleanCallbackBody(ordinary)).toBe(ordinary);
    const cleaned = JSON.parse(cleanCallbackBody('{"a\\u0000":"x\\u0000y \\ud800 \\udc00z \\ud83d\\ude00"}'));
    expect(cleaned).toEqual({ "a\uFFFD": "x\uFFFDy \uFFFD \uFFFDz \u{1F600}" });
    expect(cleanCallbackBody('"\\\\u0000"')).toBe('"\\\\u0000"'); // an escaped backslash, not an escape
  });

  it("stores and applies a signed callback carrying NUL and a lone surrogate (U+FFFD), never drops it", async () => {
    const t = await createTestCustomer();
    const tag = newTag();
    const raw = fixture("06_inbound_text.json", t.sender, tag).replace(
      "Hi, is my order on its way?",
      "Hi\\u0000 there \\ud800 order?",
    );
    expect((await postProvider(raw)).status).toBe(200);
    const row = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: `wamid.${tag}.` } } });
    expect(row.body).not.toMatch(/\\u0000|\\ud800/i);
    await drain();
    const after = await db.providerCallback.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ error: null, deadAt: null });
    expect(after.processedAt).not.toBeNull();
    const event = await db.webhookEvent.findFirstOrThrow({
      where: { customerId: t.customer.id, type: "message.inbound.text" },
    });
    expect(event.payload).toMatchObject({ data: { text: { body: "Hi\uFFFD there \uFFFD order?" } } });
  });

  it("applies a row stored raw before the endpoint cleaned bodies", async () => {
    const t = await createTestCustomer();
    const tag = newTag();
    const raw = fixture("06_inbound_text.json", t.sender, tag).replace("Hi, is my order", "old\\u0000row");
    const stored = await db.providerCallback.create({ data: { body: raw } });
    await drain();
    const after = await db.providerCallback.findUniqueOrThrow({ where: { id: stored.id } });
    expect(after).toMatchObject({ error: null, deadAt: null });
    expect(await db.webhookEvent.count({ where: { customerId: t.customer.id, type: "message.inbound.text" } })).toBe(1);
  });
});

describe("callback dead-letter list", () => {
  it("sets aside a callback that keeps failing, lists it, and applies it again once fixed", async () => {
    const t = await createTestCustomer();
    const tag = newTag();
    await sentMessages(t.sender, tag);
    // A fault only this test's messages hit: the billing record insert raises.
    const fn = `swb_test_fail_${tag}`;
    await db.$executeRawUnsafe(
      `CREATE FUNCTION ${fn}() RETURNS trigger AS $$ BEGIN
         IF NEW."messageId" LIKE 'wamid.${tag}.%' THEN RAISE EXCEPTION 'injected fault ${tag}'; END IF;
         RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER ${fn} BEFORE INSERT ON "BillingRecord" FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
    let dropped = false;
    const dropFault = async () => {
      if (dropped) return;
      dropped = true;
      await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn} ON "BillingRecord"`);
      await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
    };
    try {
      expect((await postProvider(fixture("02_status_delivered.json", t.sender, tag))).status).toBe(200);
      const { id } = await db.providerCallback.findFirstOrThrow({ where: { body: { contains: `wamid.${tag}.` } } });
      for (let i = 0; i < MAX_ATTEMPTS + 2; i++) await processPendingCallbacks(200);
      const dead = await db.providerCallback.findUniqueOrThrow({ where: { id } });
      expect(dead.deadAt).not.toBeNull();
      expect(dead.attempts).toBe(MAX_ATTEMPTS);
      expect(dead.error).toContain(`injected fault ${tag}`);

      const listed = await cli("callbacks:dead", ["--limit", "1000"]);
      const entry = (listed.json.callbacks as { id: string; attempts: number; error: string }[]).find(
        (c) => c.id === id,
      );
      expect(entry).toMatchObject({ attempts: MAX_ATTEMPTS, error: expect.stringContaining("injected fault") });
      expect(listed.text).toContain(id);

      // Still broken: back in the queue, not lost.
      const again = await cli("callbacks:retry", [id]);
      expect(again.json).toMatchObject({ processed: 0, failed: 1 });
      await db.providerCallback.update({ where: { id }, data: { processedAt: new Date(), deadAt: new Date() } });

      await dropFault();
      const retried = await cli("callbacks:retry", [id]);
      expect(retried.json).toMatchObject({ processed: 1, failed: 0 });
      const fixed = await db.providerCallback.findUniqueOrThrow({ where: { id } });
      expect(fixed).toMatchObject({ deadAt: null, error: null });
      expect(await db.billingRecord.count({ where: { messageId: { startsWith: `wamid.${tag}.` } } })).toBe(1);
      const notDead = await cli("callbacks:retry", [id]);
      expect(notDead.json).toMatchObject({ processed: 0, outcomes: [{ id, result: "not_dead" }] });
    } finally {
      await dropFault();
    }
  });

  it("callbacks:retry needs one id or --all", async () => {
    const retry = await command("callbacks:retry");
    expect(() => retry.prepare([])).toThrow(/CALLBACK_ID: give one callback id or --all/);
    expect(() => retry.prepare(["x", "--all"])).toThrow(/--all/);
  });
});

// One tenant's chatbot patterns cannot stall everyone (docs/chatbots.md "Patterns"): heavy
// patterns are refused at save time, naming the rule; a bot that has them anyway (saved
// before the limits) is decided in the rule worker pool under CHATBOT_RULE_BUDGET_MS, so
// another tenant's request answers at its usual speed meanwhile, and the message gets the
// fallback.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/core/env";
import { db } from "@/lib/db";
import { closeRulePool } from "@/lib/domains/chatbots/rule-pool";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "@/lib/domains/provider/simulator-inbound";
import { providerSender } from "@/lib/domains/senders/provider-sender";
import { processPendingCallbacks, runOne } from "@/lib/ingest/process-batch";
import { postProvider, waitFor } from "./events-helpers";
import { call, createTestCustomer, type TestCustomer, uniquePhone } from "./factory";

const captured = vi.hoisted(() => ({ lines: [] as { level: number; msg: string; chatbotId?: string }[] }));
vi.mock("@/lib/core/log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/core/log")>();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      captured.lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { ...actual, log: actual.createLogger(sink, "info") };
});

// The probe of the issue: valid RE2, linear time, 50 of them, 4,095 characters of text.
const HEAVY = "(?:\\p{L}|\\p{N}|\\p{P}|\\p{S}){1,1000}Z";
const LONG_TEXT = "a".repeat(4095);
const text = (body: string) => ({ type: "text", text: body });
const FALLBACK = text("A person will answer soon");
/** processPendingCallbacks' default batch: the three callbacks and whatever other files left pending before them. */
const CALLBACK_BATCH = 100;
/** How long attempts are made while other files' workers take the callbacks (their tests take seconds to a minute). */
const OTHER_WORKERS_MS = 90_000;

let heavy: TestCustomer;
let other: TestCustomer;
let botUid: string;

beforeAll(async () => {
  heavy = await createTestCustomer();
  other = await createTestCustomer();
  // Saved before the limits existed: written straight to the table, as such a bot is stored.
  const bot = await db.chatbot.create({
    data: {
      id: `cbt_${randomBytes(12).toString("hex")}`,
      customerId: heavy.customer.id,
      senderId: heavy.sender.id,
      activeSenderId: heavy.sender.id,
      name: "Heavy",
      status: "ACTIVE",
      rules: Array.from({ length: 50 }, () => ({ match: { type: "regex", value: HEAVY }, reply: text("matched") })),
      fallbackReply: FALLBACK,
    },
  });
  botUid = bot.id;
});
afterAll(async () => {
  await closeRulePool();
});

/**
 * The slowest answer that still says the process was not held: these patterns on the event loop
 * held it for 20 s (the budget is 500 ms), while a plain request took up to 1.9 s beside the
 * other test lanes on a saturated 2-core CI machine (2026-11-30; 1 s was the bound before).
 */
const NOT_HELD_MS = 5_000;

/** Calls GET /senders as the other tenant until `until` settles; the slowest answer's time. */
async function slowestMeanwhile(until: Promise<unknown>): Promise<{ slowest: number; calls: number }> {
  let settled = false;
  void until.finally(() => {
    settled = true;
  });
  let slowest = 0;
  let calls = 0;
  while (!settled) {
    const started = performance.now();
    const res = await call("GET", "/api/v3/senders", { token: other.globalToken });
    expect(res.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    calls += 1;
  }
  return { slowest, calls };
}

describe("chatbot patterns under a budget", () => {
  it("refuses a repetition bound over the limit, naming the rule", async () => {
    const res = await call("POST", "/api/v3/chatbots", {
      token: other.globalToken,
      body: {
        chatbot: {
          name: "Too heavy",
          rules: [
            { match: { type: "keyword", value: "hi" }, reply: text("hello") },
            { match: { type: "regex", value: HEAVY }, reply: text("matched") },
          ],
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields).toEqual([
      { path: "body.chatbot.rules.1.match.value", message: "a repetition bound of 1000 is over the limit of 100" },
    ]);
  });

  it("refuses patterns that together compile past the size limit, naming the rule that crosses it", async () => {
    const rules = Array.from({ length: 50 }, () => ({
      match: { type: "regex", value: "(?:\\p{L}|\\p{N}|\\p{P}|\\p{S}){1,100}Z" },
      reply: text("matched"),
    }));
    const res = await call("POST", "/api/v3/chatbots", {
      token: other.globalToken,
      body: { chatbot: { name: "Many heavy", rules } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    const first = res.body.details.fields[0];
    expect(first.path).toBe("body.chatbot.rules.4.match.value");
    expect(first.message).toMatch(/more than 1000 instructions/);
  });

  it("the dry run answers the fallback within the budget; another tenant's requests stay fast meanwhile", async () => {
    const started = performance.now();
    const test = call("POST", `/api/v3/chatbots/${botUid}/test`, {
      token: heavy.globalToken,
      body: { text: LONG_TEXT },
    });
    const meanwhile = await slowestMeanwhile(test);
    const res = await test;
    const took = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ matchedRule: null, reply: FALLBACK, timedOut: true });
    expect(meanwhile.calls).toBeGreaterThan(1);
    // On the event loop these patterns held the process for 20 s and every request with it.
    expect(meanwhile.slowest).toBeLessThan(NOT_HELD_MS);
    // The budget, plus a worker thread's start (the source worker loads through tsx).
    expect(took).toBeLessThan(env().CHATBOT_RULE_BUDGET_MS + 10_000);
    expect(captured.lines.some((l) => l.level === 40 && /ran out of their time budget/.test(l.msg))).toBe(true);
  });

  it(
    "three long inbound texts get the fallback, one budget for the batch; the ingest is not held",
    async () => {
      // The lane's database is shared with other files' worker processes (test/global-setup.ts),
      // whose processors, woken by the same NOTIFY, may claim any pending callback first. Whoever
      // processes them, the three get the fallback and the ingest is not held; the one budget per
      // pass is seen in the log of the process that ran the pass, so an attempt another process
      // took is made again with three new contacts until this process runs one. (A CI run of
      // 2026-12-02 found none of the three replies after this process's pass: with a worker
      // process started beside this file, its pass took the callbacks every time.)
      const deadline = Date.now() + OTHER_WORKERS_MS;
      for (let attempt = 1; ; attempt += 1) {
        const contacts = [uniquePhone(), uniquePhone(), uniquePhone()];
        const wamids: string[] = [];
        for (const from of contacts) {
          const id = `wamid.heavy.${randomBytes(8).toString("hex")}`;
          wamids.push(id);
          const raw = envelopeFor([
            inboundTextChange(providerSender(heavy.sender), { from, id, name: "Ana", text: LONG_TEXT }),
          ]);
          expect((await postProvider(raw)).status).toBe(200);
        }
        const ours = await db.providerCallback.findMany({
          where: { OR: wamids.map((id) => ({ body: { contains: id } })) },
          select: { id: true },
        });
        expect(ours).toHaveLength(3);
        captured.lines.length = 0;
        // processPendingCallbacks' batch (runOne), which also says which callbacks it claimed.
        // A batch that failed as a whole (another file's callback in it) is an attempt not made
        // here: processPendingCallbacks would retry it one by one, below.
        const processing = runOne(CALLBACK_BATCH).then(
          (r) => r.callbacks.map((c) => c.id),
          () => [] as string[],
        );
        const meanwhile = await slowestMeanwhile(processing);
        const claimed = new Set(await processing);
        expect(meanwhile.slowest).toBeLessThan(NOT_HELD_MS);
        const here = ours.filter((c) => claimed.has(c.id)).length;
        // Written by this pass, or by the other process's, or (that process killed mid-pass, as
        // the crash tests do) by a later pass of this one.
        const replies = await waitFor(
          async () => {
            if (here < ours.length) await processPendingCallbacks();
            const rows = await db.chatbotReply.findMany({
              where: { customerId: heavy.customer.id, contactPhoneNumber: { in: contacts } },
            });
            return rows.length === 3 && rows;
          },
          30_000,
          "the three chatbot replies",
        );
        for (const r of replies) expect(r).toMatchObject({ matchedRule: null, reply: FALLBACK });
        if (here === ours.length) {
          // One budget spent for the bot in this pass; its other messages took the fallback unevaluated.
          const budgets = captured.lines.filter((l) => /ran out of their time budget/.test(l.msg));
          expect(budgets.filter((l) => l.chatbotId === botUid)).toHaveLength(1);
          return;
        }
        expect(
          Date.now(),
          `another process claimed ${3 - here} of the 3 callbacks in each of ${attempt} attempts`,
        ).toBeLessThan(deadline);
      }
    },
    OTHER_WORKERS_MS + 60_000,
  );
});

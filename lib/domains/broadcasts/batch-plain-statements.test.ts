// A broadcast batch's statements go to PostgreSQL on plain pg, not through the Prisma client
// (docs/broadcasts.md "How it sends"): Prisma's CPU per statement was more than the statement's
// own. Told apart by how they reach pg: the Prisma adapter asks for its rows as arrays
// (`rowMode: "array"`), plain pg (lib/db/pool.ts hotRows, hotTransaction) never does. The only
// Prisma reads left on the way are the per-process caches' refills (a template, a balance, a rate:
// 2-5 s each), which a batch right after another does not make.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { fastSenderCustomer, startedBroadcast } from "@/test/broadcast-fixtures";
import { uniquePhone } from "@/test/factory";
import type { messagingCustomer } from "@/test/messaging-fixtures";
import type { RecordingProvider } from "@/test/recording-provider";
import { dispatchOnce } from "./dispatcher";

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let provider: RecordingProvider;

beforeAll(async () => {
  ({ t, provider } = await fastSenderCustomer());
});
afterAll(() => provider.restore());

/** The statements sent through the Prisma client while `run` runs (their text). */
async function prismaStatements(run: () => Promise<unknown>): Promise<string[]> {
  const query = pg.Client.prototype.query;
  const seen: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as { text?: string; rowMode?: string } | string | undefined;
    if (typeof first === "object" && first?.rowMode === "array") seen.push(first.text ?? "");
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
    return seen;
  } finally {
    pg.Client.prototype.query = query;
  }
}

it("a batch on the real clock (claim, messaging limit, slots, checks, records, calls, outcomes, live notices, progress) sends nothing through Prisma", async () => {
  const phones = Array.from({ length: 40 }, () => uniquePhone());
  const uid = await startedBroadcast(t.globalToken, phones, { name: "Plain statements" });
  const options = { customerIds: [t.customer.id], batchSize: 20, housekeeping: false };
  // The first batch fills the process's caches (template, balance, rate).
  expect(await dispatchOnce(options)).toBe(20);
  const seen = await prismaStatements(async () => expect(await dispatchOnce(options)).toBe(20));
  // A cache that expired meanwhile on a slow machine may read again; nothing of the batch's own does.
  const batchOwn = seen.filter((text) => !/"(Template|BillingTransaction|RateCard)"/.test(text));
  expect(batchOwn).toEqual([]);
  const recipients = await db.broadcastRecipient.findMany({ where: { broadcastId: uid } });
  expect(recipients.map((r) => r.status)).toEqual(Array(40).fill("accepted"));
  for (const phone of phones) expect(provider.calls.filter((c) => c.to === phone)).toHaveLength(1);
});

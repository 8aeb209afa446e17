// Stored callbacks wake the processor per window, not per POST (docs/event-pipeline.md
// "Provider callbacks (`GET|POST /api/provider/webhook`)"): a burst of POSTs is stored in a few
// multi-row statements, with at most one NOTIFY each, and every POST answered 200 has its row stored.
import { expect, it } from "vitest";
import { db } from "@/lib/db";
import { CHANNELS } from "@/lib/db/wakeups";
import { postProvider, statusBody } from "@/test/events-helpers";
import { otherConnection } from "@/test/other-connection";

const POSTS = 60;

it(`${POSTS} concurrent provider POSTs: every one stored, far fewer NOTIFYs than POSTs`, async () => {
  await otherConnection(async (client) => {
    let heard = 0;
    let marked = false;
    client.on("notification", (n) => {
      if (n.channel !== CHANNELS.callbacks) return;
      if (n.payload === "marker") marked = true;
      else heard += 1;
    });
    await client.query(`LISTEN ${CHANNELS.callbacks}`);
    const tag = `coalesce${Date.now()}`;
    // Statuses for an unknown number: stored all the same (the processor notes them later).
    const sender = { phoneNumberId: `pn_${tag}`, wabaId: `waba_${tag}` };
    const bodies = Array.from({ length: POSTS }, (_, i) =>
      statusBody(sender, [{ id: `wamid.${tag}.${i}`, recipient_id: "15550001111", status: "sent", timestamp: 1 }]),
    );
    const answers = await Promise.all(bodies.map((b) => postProvider(b)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    const stored = await db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "ProviderCallback" WHERE strpos(body, $1) > 0`,
      `wamid.${tag}.`,
    );
    expect(stored[0]?.n).toBe(POSTS);
    // Notifications arrive in commit order: once this later one has, so have the statements'.
    await client.query(`SELECT pg_notify($1, 'marker')`, [CHANNELS.callbacks]);
    await expect.poll(() => marked, { timeout: 5_000, interval: 10 }).toBe(true);
    // One per statement: two statements in flight at most, each taking what waited for it.
    expect(heard).toBeGreaterThan(0);
    expect(heard).toBeLessThanOrEqual(POSTS / 4);
  });
});

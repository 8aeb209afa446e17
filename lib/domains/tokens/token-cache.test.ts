// The verified-token cache against the real database, PGlite and PostgreSQL
// (docs/tokens.md "Verified-token cache"): it serves repeated requests without a look-up,
// and no revoked, rotated-out, expired token or suspended customer keeps working, whether
// the change is made by a service here, by another connection (another process, the CLI, an
// operator's SQL) or while the LISTEN connection is down.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeWakeups, isListening, onWakeup } from "@/lib/db/wakeups";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { otherConnection } from "@/test/other-connection";
import { cutListenConnection, tokenCacheListening, tokenChangesPropagated } from "@/test/token-propagation";
import { revokeToken, rotateToken, verifyToken } from "./service";
import { tokenCache } from "./token-cache";
import { hashToken } from "./token-string";

afterAll(closeWakeups);

const HOUR = 3_600_000;
const stats = () => ({ ...tokenCache().stats });
const list = (token: string) => call("GET", "/api/v3/chatbots", { token });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** Verifies twice and proves the second answer came from the cache. */
async function cached(token: string) {
  await verifyToken(token);
  const before = stats();
  const verified = await verifyToken(token);
  expect(stats().hits).toBe(before.hits + 1);
  return verified;
}

/** The token's row id (by hash: the plain token is never stored). */
async function tokenId(token: string): Promise<string> {
  return (await verifyToken(token)).record.id;
}

let c: TestCustomer;
beforeEach(async () => {
  c = await createTestCustomer({ plan: "pro" });
  await tokenCacheListening();
});

describe("verified-token cache", () => {
  it("serves a repeated request from the cache, with the same principal as the look-up", async () => {
    const first = await verifyToken(c.globalToken);
    const second = await cached(c.globalToken);
    expect(second.principal).toEqual(first.principal);
    expect((await list(c.globalToken)).status).toBe(200);
    // Only the hash is a key; the plain token is nowhere in what the cache holds.
    expect(JSON.stringify(second)).not.toContain(c.globalToken);
    expect(second.record.hash).toBe(hashToken(c.globalToken));
  });

  it("rejects a cached token right after revokeToken, with no wait", async () => {
    const { record } = await cached(c.globalToken);
    await revokeToken(systemPrincipal(c.customer.id), record.id);
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");
    expect((await list(c.globalToken)).status).toBe(401);
    expect((await list(c.scopedToken)).status).toBe(200);
  });

  it("rotation: the cached old token works until its grace ends and not after; grace 0 stops it at once", async () => {
    const { record } = await cached(c.scopedToken);
    const start = new Date();
    const { token } = await rotateToken(systemPrincipal(c.customer.id), record.id, { graceHours: 2, now: start });
    // Our own rotation's notification clears the cache once more when it arrives; wait for it
    // so the hits below are hits.
    await tokenChangesPropagated();
    await cached(c.scopedToken);
    expect((await verifyToken(c.scopedToken, new Date(start.getTime() + 2 * HOUR - 1_000))).record.id).toBe(record.id);
    // The expiry is checked against the time of each request, on a hit too: the entry was
    // there (a hit), and the answer is still 401.
    const before = stats();
    expect(await codeOf(verifyToken(c.scopedToken, new Date(start.getTime() + 2 * HOUR)))).toBe("INVALID_AUTH_TOKEN");
    expect(stats().hits).toBe(before.hits + 1);
    expect((await verifyToken(token)).principal.scopedSenderId).toBe(c.sender.id);

    const global = await cached(c.globalToken);
    await rotateToken(systemPrincipal(c.customer.id), global.record.id, { graceHours: 0 });
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");
  });

  it("a revocation by another connection (direct SQL) rejects the cached token once it has propagated", async () => {
    const { record } = await cached(c.globalToken);
    await otherConnection((db) => db.query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "id" = $1`, [record.id]));
    await tokenChangesPropagated();
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");
    expect((await list(c.globalToken)).status).toBe(401);
  });

  it("a customer suspended, deleted or moved to another plan by another connection is seen once propagated", async () => {
    await cached(c.globalToken);
    await otherConnection((db) =>
      db.query(`UPDATE "Customer" SET "plan" = 'starter' WHERE "id" = $1`, [c.customer.id]),
    );
    await tokenChangesPropagated();
    expect((await verifyToken(c.globalToken)).principal.plan).toBe("starter");

    await cached(c.globalToken);
    await otherConnection((db) =>
      db.query(`UPDATE "Customer" SET "status" = 'SUSPENDED' WHERE "id" = $1`, [c.customer.id]),
    );
    await tokenChangesPropagated();
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");

    const other = await createTestCustomer();
    await cached(other.globalToken);
    await otherConnection((db) => db.query(`DELETE FROM "Customer" WHERE "id" = $1`, [other.customer.id]));
    await tokenChangesPropagated();
    expect(await codeOf(verifyToken(other.globalToken))).toBe("INVALID_AUTH_TOKEN");
  });

  it("an expiry set or a token deleted by another connection is seen once propagated", async () => {
    const id = await tokenId(c.globalToken);
    await cached(c.globalToken);
    await otherConnection((db) =>
      db.query(`UPDATE "ApiToken" SET "expiresAt" = (now() AT TIME ZONE 'UTC') - interval '1 second' WHERE "id" = $1`, [
        id,
      ]),
    );
    await tokenChangesPropagated();
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");

    const scopedId = await tokenId(c.scopedToken);
    await cached(c.scopedToken);
    await otherConnection((db) => db.query(`DELETE FROM "ApiToken" WHERE "id" = $1`, [scopedId]));
    await tokenChangesPropagated();
    expect(await codeOf(verifyToken(c.scopedToken))).toBe("INVALID_AUTH_TOKEN");
  });

  it("lastUsedAt writes (its own, once a minute) and unrelated customer columns notify nothing", async () => {
    const id = await tokenId(c.globalToken);
    await cached(c.globalToken);
    const before = stats();
    await otherConnection(async (db) => {
      await db.query(`UPDATE "ApiToken" SET "lastUsedAt" = now() WHERE "id" = $1`, [id]);
      await db.query(`UPDATE "Customer" SET "name" = 'Renamed', "updatedAt" = now() WHERE "id" = $1`, [c.customer.id]);
    });
    await tokenChangesPropagated();
    expect(stats().invalidations).toBe(before.invalidations);
    await cached(c.globalToken);
  });

  it("does not serve while the LISTEN connection is closed, and starts empty when it is back", async () => {
    const { record } = await cached(c.globalToken);
    await cached(c.scopedToken);
    await closeWakeups();
    expect(isListening("tokens")).toBe(false);
    const before = stats();
    expect((await verifyToken(c.scopedToken)).record.customerId).toBe(c.customer.id);
    expect(stats().hits).toBe(before.hits);
    // Committed while nobody listens: this notification is lost.
    await otherConnection((db) => db.query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "id" = $1`, [record.id]));
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");
    // Reconnect (any subscription does it): the cache was cleared, nothing stale comes back.
    const stop = onWakeup("chatbots", () => {});
    await tokenCacheListening();
    stop();
    expect(tokenCache().size).toBe(0);
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");
    await cached(c.scopedToken);
  });

  it("a connection that drops: no hit until it is back, then no stale entry", async () => {
    await cached(c.globalToken);
    await cached(c.scopedToken);
    const before = stats();
    // A suspension in flight when the connection drops: its notification may be lost.
    await otherConnection(async (db) => {
      await db.query("BEGIN");
      await db.query(`UPDATE "Customer" SET "status" = 'SUSPENDED' WHERE "id" = $1`, [c.customer.id]);
      cutListenConnection();
      while (isListening("tokens")) await new Promise((r) => setImmediate(r));
      await db.query("COMMIT");
    });
    expect(await codeOf(verifyToken(c.globalToken))).toBe("INVALID_AUTH_TOKEN");
    await tokenCacheListening();
    expect(stats().hits).toBe(before.hits);
    expect(await codeOf(verifyToken(c.scopedToken))).toBe("INVALID_AUTH_TOKEN");
  });
});

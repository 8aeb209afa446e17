// Token rotation with overlap (docs/tokens.md), through the real router: the successor
// works at once, the old token until its grace ends and not after.
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import { call, createTestCustomer } from "@/test/factory";
import { MAX_ROTATION_GRACE_HOURS, rotateToken } from "./service";
import { hashToken } from "./token-string";

const HOUR = 3_600_000;
const list = (token: string) => call("GET", "/api/v2/chatbots", { token });

async function recordOf(token: string) {
  return db.apiToken.findUniqueOrThrow({ where: { hash: hashToken(token) } });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("rotateToken", () => {
  it("keeps the old token working for the grace and not a second after; the successor works at once", async () => {
    const c = await createTestCustomer();
    const old = await recordOf(c.scopedToken);
    const start = new Date();
    const { token, successor, previous } = await rotateToken(systemPrincipal(c.customer.id), old.id, {
      graceHours: 2,
      now: start,
    });

    expect(successor).toMatchObject({ name: old.name, senderId: c.sender.id, customerId: c.customer.id });
    expect(successor.id).not.toBe(old.id);
    expect(successor.expiresAt).toBeNull();
    expect(previous.expiresAt?.getTime()).toBe(start.getTime() + 2 * HOUR);
    // Only the hash of the successor is stored.
    expect(JSON.stringify(await db.apiToken.findUniqueOrThrow({ where: { id: successor.id } }))).not.toContain(
      token.slice("swb_live_".length),
    );

    expect((await list(token)).status).toBe(200);
    expect((await list(c.scopedToken)).status).toBe(200);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start.getTime() + 2 * HOUR - 1000);
    expect((await list(c.scopedToken)).status).toBe(200);
    vi.setSystemTime(start.getTime() + 2 * HOUR + 1000);
    const after = await list(c.scopedToken);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error_code: "INVALID_AUTH_TOKEN" });
    // The successor carries the same scope: it still answers for the scoped sender only.
    expect((await list(token)).status).toBe(200);
  });

  it("never extends an earlier expiry, and the successor keeps that expiry", async () => {
    const c = await createTestCustomer();
    const old = await recordOf(c.globalToken);
    const soon = new Date(Date.now() + HOUR);
    await db.apiToken.update({ where: { id: old.id }, data: { expiresAt: soon } });
    const { previous, successor } = await rotateToken(systemPrincipal(c.customer.id), old.id, { graceHours: 24 });
    expect(previous.expiresAt?.getTime()).toBe(soon.getTime());
    expect(successor.expiresAt?.getTime()).toBe(soon.getTime());
  });

  it("with a grace of 0 the old token stops at once", async () => {
    const c = await createTestCustomer();
    const old = await recordOf(c.globalToken);
    const { token } = await rotateToken(systemPrincipal(c.customer.id), old.id, { graceHours: 0 });
    expect((await list(c.globalToken)).status).toBe(401);
    expect((await list(token)).status).toBe(200);
  });

  it("refuses another customer's token, an inactive token and a grace over 7 days", async () => {
    const a = await createTestCustomer();
    const b = await createTestCustomer();
    const aToken = await recordOf(a.globalToken);
    await expect(rotateToken(systemPrincipal(b.customer.id), aToken.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await list(a.globalToken)).status).toBe(200);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: aToken.id } })).expiresAt).toBeNull();

    await expect(
      rotateToken(systemPrincipal(a.customer.id), aToken.id, { graceHours: MAX_ROTATION_GRACE_HOURS + 1 }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await db.apiToken.update({ where: { id: aToken.id }, data: { revokedAt: new Date() } });
    await expect(rotateToken(systemPrincipal(a.customer.id), aToken.id)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db.apiToken.count({ where: { customerId: a.customer.id } })).toBe(2);
  });
});

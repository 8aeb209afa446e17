// The hourly pruning of spent credentials (docs/security.md "What is kept"): spent sessions,
// reset links and invitations past their keep time go; live ones and the newest session of
// each device label stay, so a device used long ago is still not "new".
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestCustomer } from "@/test/factory";
import { createMemberOf } from "@/test/member-fixtures";
import { pruneSpentCredentials } from "./pruning";

const DAY = 86_400_000;
const NOW = new Date();
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
let n = 0;
const uid = (prefix: string) => `${prefix}_prune${Date.now().toString(36)}${n++}`;

describe("pruning spent credentials", () => {
  it("deletes what is spent past its keep time and keeps the rest", async () => {
    const t = await createTestCustomer();
    const m = await createMemberOf(t.customer.id, "agent");
    const session = (device: string, created: number, ended: number | null, expires: number) =>
      db.userSession.create({
        data: {
          id: uid("ses"),
          userId: m.userId,
          customerId: t.customer.id,
          device,
          createdAt: ago(created),
          endedAt: ended === null ? null : ago(ended),
          expiresAt: ago(expires),
        },
      });
    const oldFirefox = await session("Firefox on Linux", 90, 85, 80);
    const lastFirefox = await session("Firefox on Linux", 60, 50, 45); // newest of its device: kept
    const expiredSafari = await session("Safari on macOS", 70, null, 40); // newest of its device: kept
    const olderSafari = await session("Safari on macOS", 80, 79, 72);
    const recentlyEnded = await session("Chrome on Linux", 12, 10, -2); // ended 10 days ago: kept
    const olderChrome = await session("Chrome on Linux", 50, 40, 35); // spent, a newer Chrome exists

    const reset = (expires: number, used: number | null) =>
      db.passwordReset.create({
        data: {
          userId: m.userId,
          tokenHash: uid("hash"),
          expiresAt: ago(expires),
          usedAt: used === null ? null : ago(used),
        },
      });
    const usedLongAgo = await reset(-1, 2);
    const expiredLongAgo = await reset(3, null);
    const usedToday = await reset(-1, 0.1);
    const open = await reset(-0.5, null);

    const invitation = (fields: { expires: number; accepted?: number; revoked?: number }) =>
      db.invitation.create({
        data: {
          id: uid("inv"),
          customerId: t.customer.id,
          email: `${uid("x")}@example.test`,
          role: "agent",
          tokenHash: uid("ih"),
          expiresAt: ago(fields.expires),
          acceptedAt: fields.accepted === undefined ? null : ago(fields.accepted),
          revokedAt: fields.revoked === undefined ? null : ago(fields.revoked),
        },
      });
    const acceptedLongAgo = await invitation({ expires: 30, accepted: 35 });
    const revokedLongAgo = await invitation({ expires: 25, revoked: 31 });
    const expiredLongAgoInv = await invitation({ expires: 31 });
    const expiredLately = await invitation({ expires: 5 }); // still listed as expired on /members
    const pending = await invitation({ expires: -5 });

    expect(await pruneSpentCredentials(NOW)).toBeGreaterThanOrEqual(8);

    const sessions = new Set(
      (await db.userSession.findMany({ where: { userId: m.userId }, select: { id: true } })).map((s) => s.id),
    );
    expect(sessions.has(m.session.sessionId)).toBe(true);
    for (const kept of [lastFirefox, expiredSafari, recentlyEnded])
      expect(sessions.has(kept.id), kept.device).toBe(true);
    for (const gone of [oldFirefox, olderSafari, olderChrome]) expect(sessions.has(gone.id), gone.device).toBe(false);

    const resets = new Set((await db.passwordReset.findMany({ where: { userId: m.userId } })).map((r) => r.id));
    expect([...resets].sort()).toEqual([usedToday.id, open.id].sort());
    expect(resets.has(usedLongAgo.id) || resets.has(expiredLongAgo.id)).toBe(false);

    const invitations = new Set(
      (await db.invitation.findMany({ where: { customerId: t.customer.id } })).map((i) => i.id),
    );
    expect(invitations.has(expiredLately.id) && invitations.has(pending.id)).toBe(true);
    for (const gone of [acceptedLongAgo, revokedLongAgo, expiredLongAgoInv])
      expect(invitations.has(gone.id)).toBe(false);
  });
});

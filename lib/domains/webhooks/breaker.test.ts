// The circuit breaker's pure transitions (docs/event-pipeline.md "Endpoint health").
import { describe, expect, it } from "vitest";
import { admit, afterAttempts, BREAKER, deliveryCap, type Health, probeBackoffMs, resetHealth } from "./breaker";

const T0 = new Date("2026-11-23T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const closed = (): Health => {
  const { disabledAt: _d, ...h } = resetHealth(T0);
  return { ...h, breakerClosedAt: null };
};
const fail = (id: string, ms = 0) => ({ deliveryId: id, ok: false, at: at(ms) });
const ok = (id: string, ms = 0) => ({ deliveryId: id, ok: true, at: at(ms) });

describe("circuit breaker transitions", () => {
  it("the probe backoff doubles from 30 s and is capped at 1 h", () => {
    expect([1, 2, 3, 4].map(probeBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(probeBackoffMs(20)).toBe(BREAKER.probeBackoffMaxMs);
  });

  it("opens at failuresToOpen consecutive failures, not before", () => {
    const four = afterAttempts(
      closed(),
      ["a", "b", "c", "d"].map((id) => fail(id)),
      T0,
    );
    expect(four).toMatchObject({ opened: false, health: { breakerState: "CLOSED", consecutiveFailures: 4 } });
    const five = afterAttempts(four.health, [fail("e")], T0);
    expect(five.opened).toBe(true);
    expect(five.health).toMatchObject({ breakerState: "OPEN", breakerOpenCount: 1, nextProbeAt: at(30_000) });
  });

  it("a success in between ends the streak", () => {
    const r = afterAttempts(closed(), [fail("a"), fail("b"), ok("c"), fail("d"), fail("e")], T0);
    expect(r.health).toMatchObject({ breakerState: "CLOSED", consecutiveFailures: 2, failingSince: T0 });
  });

  it("open: waits until nextProbeAt, then one probe; half-open: the others wait for the probe's lease", () => {
    const open = afterAttempts(
      closed(),
      ["a", "b", "c", "d", "e"].map((id) => fail(id)),
      T0,
    ).health;
    expect(admit(open, "x", at(29_999), 5000)).toEqual({ decision: "wait", until: at(30_000) });
    const probe = admit(open, "x", at(30_000), 5000);
    expect(probe).toMatchObject({ decision: "probe", patch: { breakerState: "HALF_OPEN", probeDeliveryId: "x" } });
    const half = { ...open, ...(probe.decision === "probe" ? probe.patch : {}) };
    expect(admit(half, "y", at(31_000), 5000)).toEqual({ decision: "wait", until: at(35_000) });
    // The probe's own delivery claimed again (its failure written, its retry due, the breaker not yet told)
    // waits too: no second probe.
    expect(admit(half, "x", at(31_000), 5000)).toEqual({ decision: "wait", until: at(35_000) });
    expect(admit(half, "y", at(35_000), 5000)).toMatchObject({ decision: "probe", patch: { probeDeliveryId: "y" } });
    // The probe's failure re-opens with the next backoff; its success closes.
    const again = afterAttempts(half, [fail("x", 31_000)], at(32_000));
    expect(again.health).toMatchObject({ breakerState: "OPEN", breakerOpenCount: 2, nextProbeAt: at(92_000) });
    const healed = afterAttempts(half, [ok("x", 31_000)], at(32_000));
    expect(healed).toMatchObject({ closed: true, health: { breakerState: "CLOSED", breakerClosedAt: at(32_000) } });
  });

  it("disables after 5 days of nothing but failures", () => {
    const start = afterAttempts(closed(), [fail("a")], T0).health;
    expect(afterAttempts(start, [fail("b")], at(BREAKER.disableAfterMs - 1)).disable).toBe(false);
    expect(afterAttempts(start, [fail("b")], at(BREAKER.disableAfterMs)).disable).toBe(true);
  });

  it("ramps deliveries up after the breaker closed, under the destination's own cap", () => {
    expect(deliveryCap(null, null, T0)).toBeNull();
    expect(deliveryCap(7, null, T0)).toBe(7);
    expect(deliveryCap(null, T0, at(0))).toBe(1);
    expect(deliveryCap(null, T0, at(25_000))).toBe(4);
    expect(deliveryCap(3, T0, at(25_000))).toBe(3);
    expect(deliveryCap(null, T0, at(BREAKER.recoveryRampMs))).toBeNull();
  });
});

// The pacing check of bench:broadcast can fail: a sender faster than its number's throughput
// is refused by the simulator (a sliding second, as a provider may count) and failed by the
// check; a sender paced at the throughput passes both (bench/pacing.ts, docs/benchmarks.md).
import { describe, expect, it } from "vitest";
import { checkPacing, type ProviderCall } from "@/bench/pacing";
import { ProviderSimulator } from "@/lib/domains/provider/simulator";
import { uniquePhone } from "@/test/factory";

const T0 = 1_900_000_000_000;

/** Sends one message at each of `times` (a held clock) from a fresh number; what the provider saw. */
async function sendAt(times: number[], throughput = 80): Promise<ProviderCall[]> {
  const sim = new ProviderSimulator({
    throughputPerSecond: throughput,
    statusDelayMs: 60_000,
    failureRate: 0,
    readRate: 0,
    replyRate: 0,
    messagingLimit: 1_000_000,
    marketingCapRate: 0,
  });
  let now = T0;
  sim.limits.useClock(() => now);
  const sender = { phoneNumberId: `pace${uniquePhone().slice(1)}`, phoneNumber: uniquePhone(), wabaId: "w-pace" };
  const calls: ProviderCall[] = [];
  for (const at of times) {
    now = at;
    const outcome = await sim.sendMessage(sender, {
      messaging_product: "whatsapp",
      to: uniquePhone().slice(1),
      type: "text",
      text: { body: "hi" },
    });
    calls.push(outcome.ok ? { at } : { at, refusedWith: outcome.code });
  }
  return calls;
}

describe("the pacing check of bench:broadcast", () => {
  it("fails a sender at twice the throughput, which the simulator refuses", async () => {
    const calls = await sendAt(Array.from({ length: 320 }, (_, i) => T0 + i * 6.25)); // 160/s for 2 s
    const verdict = checkPacing(calls, 80);
    expect(verdict.refused).toBeGreaterThanOrEqual(150);
    expect(verdict.mostInAnyWindow).toBeGreaterThan(80);
    expect(verdict.problems).toHaveLength(3);
  });

  it("fails 80 per clock second sent at the seconds' edges (160 in one sliding second)", async () => {
    const times: number[] = [];
    for (let s = 0; s < 4; s++) for (let i = 0; i < 80; i++) times.push(T0 + s * 1000 + (s % 2 ? i : 920 + i));
    const verdict = checkPacing(await sendAt(times), 80);
    expect(verdict.mostInAnyWindow).toBe(160);
    expect(verdict.refused).toBeGreaterThan(0);
    expect(verdict.problems.join("; ")).toMatch(/160 calls in one 1,000 ms/);
  });

  it("passes a sender paced evenly at the throughput", async () => {
    const verdict = checkPacing(await sendAt(Array.from({ length: 400 }, (_, i) => T0 + i * 12.5)), 80);
    expect(verdict).toMatchObject({ refused: 0, mostInAnyWindow: 80, problems: [] });
    expect(verdict.rate).toBeCloseTo(80, 5);
  });
});

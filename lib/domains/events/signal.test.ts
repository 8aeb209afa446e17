// A worker's sleep keeps a wake-up that came while it was busy (lib/core/wakeable-sleep.ts):
// the pause after that pass ends at once instead of waiting for the safety poll.
import { describe, expect, it } from "vitest";
import { deliveriesQueued, workerSleep } from "./signal";

describe("workerSleep", () => {
  it("ends a pause when deliveries are queued", async () => {
    const sleep = workerSleep("deliveries");
    const started = Date.now();
    const paused = sleep.pause(10_000);
    setTimeout(deliveriesQueued, 20);
    await paused;
    expect(Date.now() - started).toBeLessThan(5_000);
    sleep.close();
  });

  it("keeps a wake-up that came between pauses for the next pause", async () => {
    const sleep = workerSleep("deliveries");
    // The listening connection wakes every worker when it (re)connects: wait until a pause
    // runs its full time, so no such wake-up is still on its way.
    for (let i = 0; i < 20; i++) {
      const t = Date.now();
      await sleep.pause(300);
      if (Date.now() - t >= 250) break;
    }
    const since = sleep.epoch(); // a pass starts reading
    deliveriesQueued(); // while busy: no pause in progress
    const started = Date.now();
    await sleep.pause(10_000, since);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The next pass saw that work: the pause after it sleeps its time.
    const again = Date.now();
    await sleep.pause(200, sleep.epoch());
    expect(Date.now() - again).toBeGreaterThanOrEqual(150);
    sleep.close();
  });
});

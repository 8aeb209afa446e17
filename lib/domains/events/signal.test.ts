// A worker woken by the in-process signal (lib/core/worker-loop.ts): queued deliveries end
// its sleep, and one queued while a pass was busy is kept for the pause after that pass
// instead of waiting for the safety poll.
import { describe, expect, it } from "vitest";
import { IDLE, startWorker } from "@/lib/core/worker-loop";
import { deliveriesQueued, onDeliveriesQueued } from "./signal";

describe("onDeliveriesQueued as a worker's wake source", () => {
  it("ends a pause when deliveries are queued", async () => {
    let passes = 0;
    const worker = startWorker({
      name: "signal test",
      wakeOn: [onDeliveriesQueued],
      pollMs: 600_000,
      pass: async () => {
        passes += 1;
        return IDLE;
      },
    });
    await expect.poll(() => passes).toBe(1);
    const started = Date.now();
    deliveriesQueued();
    await expect.poll(() => passes, { timeout: 5_000 }).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    await worker.stop();
  });

  it("keeps a wake-up that came during a pass for the next pause", async () => {
    let passes = 0;
    let releasePass: () => void = () => {};
    const worker = startWorker({
      name: "signal test",
      wakeOn: [onDeliveriesQueued],
      pollMs: 600_000,
      pass: async () => {
        passes += 1;
        if (passes === 1) {
          await new Promise<void>((resolve) => {
            releasePass = resolve;
          });
          deliveriesQueued(); // while busy: no pause in progress
        }
        return IDLE;
      },
    });
    await expect.poll(() => passes).toBe(1);
    releasePass();
    await expect.poll(() => passes, { timeout: 5_000 }).toBe(2);
    await worker.stop();
  });
});

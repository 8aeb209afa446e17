// The send pipeline's wait before retrying a refusal (dispatch.ts retryWaitMs): a throughput
// refusal is never retried inside the window the provider counts (its Retry-After), one longer
// than a second goes back to the caller, and the broadcast dispatcher takes 130429s back at once.
import { describe, expect, it } from "vitest";
import type { ProviderRefused } from "@/lib/domains/provider/types";
import { MAX_ATTEMPTS, retryWaitMs } from "./dispatch";

const refused = (over: Partial<ProviderRefused> = {}): ProviderRefused => ({
  ok: false,
  code: 130429,
  message: "Rate limit hit",
  retryable: true,
  ambiguous: false,
  ...over,
});

describe("retryWaitMs", () => {
  it("waits at least the Retry-After of a throughput refusal", () => {
    for (let i = 0; i < 50; i++)
      expect(retryWaitMs(refused({ retryAfterSeconds: 1 }), 1)).toBeGreaterThanOrEqual(1_000);
  });

  it("gives back a refusal whose Retry-After is longer than a second, or when the caller retries itself", () => {
    expect(retryWaitMs(refused({ retryAfterSeconds: 2 }), 1)).toBeNull();
    expect(retryWaitMs(refused({ retryAfterSeconds: 1 }), 1, false)).toBeNull();
  });

  it("backs off without a Retry-After, and never retries what must not be", () => {
    const wait = retryWaitMs(refused(), 1);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThan(1_000);
    expect(retryWaitMs(refused({ code: 131056 }), 1)).toBeNull();
    expect(retryWaitMs(refused({ ambiguous: true }), 1)).toBeNull();
    expect(retryWaitMs(refused({ retryable: false }), 1)).toBeNull();
    expect(retryWaitMs(refused(), MAX_ATTEMPTS)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { DashboardApiError } from "./client";
import { FAILED_READ_POLL_MS, isTransient, livePoll, shouldRetryRead, TRANSIENT_RETRIES } from "./query-retry";

const failed = (status: number) => new DashboardApiError(status, "X", "failed");
const query = (status: string) => ({ state: { status } });

describe("dashboard reads that fail", () => {
  it("retries a passing failure (network, 408, 429, 5xx) three times, any other refusal once", () => {
    for (const status of [0, 408, 429, 500, 503]) {
      expect(isTransient(failed(status))).toBe(true);
      expect(shouldRetryRead(TRANSIENT_RETRIES - 1, failed(status))).toBe(true);
      expect(shouldRetryRead(TRANSIENT_RETRIES, failed(status))).toBe(false);
    }
    for (const status of [400, 401, 403, 404, 409]) {
      expect(isTransient(failed(status))).toBe(false);
      expect(shouldRetryRead(0, failed(status))).toBe(true);
      expect(shouldRetryRead(1, failed(status))).toBe(false);
    }
    expect(isTransient(new TypeError("Failed to fetch"))).toBe(true);
  });

  it("polls a live read only without the stream, and a failed one until it answers", () => {
    expect(livePoll(true, 3_000)(query("success"))).toBe(false);
    expect(livePoll(false, 3_000)(query("success"))).toBe(3_000);
    expect(livePoll(true, 3_000)(query("error"))).toBe(FAILED_READ_POLL_MS);
    expect(livePoll(false, 3_000)(query("error"))).toBe(FAILED_READ_POLL_MS);
    expect(livePoll(true, 3_000)(query("pending"))).toBe(false);
  });
});

// The one fixed wait a test may use (docs/architecture.md "Where tests live"): where a test
// proves that something does NOT happen (no second call, no delivery), it gives the thing
// that time to happen wrongly, then looks. Everything else waits for its condition
// (vi.waitFor, expect.poll), never a fixed time.
export async function graceFor(ms: number, _whatMustNotHappen: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

// The dispatcher's options (dispatcher.ts passes, worker.ts lanes): the lease of a claim, the
// batch size, the clock and the customers, with their defaults.
import { providerSendLeaseMs } from "@/lib/domains/messaging/dispatch";

export type DispatchOptions = {
  /** How long a claim and a "sending" mark hold before the row is given up (default: every provider attempt's timeout and a margin). */
  leaseMs?: number;
  /** Recipients per claim (default 100). */
  batchSize?: number;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Only these customers' broadcasts (isolated tests). */
  customerIds?: string[] | null;
  /**
   * Start due scheduled broadcasts, resume paused ones and settle stale sends first
   * (default true; the worker loop does it once per poll interval, not before every batch).
   */
  housekeeping?: boolean;
  /**
   * Awaited after each group of a batch's messages is recorded, before their calls (their
   * ids): a test holds it to stand for a worker killed there (docs/broadcasts.md "Crashes").
   */
  afterRecord?: ((messageIds: string[]) => Promise<void>) | null;
};

/** Whether the options' clock is the real one: only then are calls held to their slots (a test's clock is moved by the test). */
const realClock = (options: DispatchOptions) => options.now === undefined;

/** The options with their defaults; `real`: the real clock, the only one calls are held to their slots by. */
export type Options = Required<DispatchOptions> & { real: boolean };

export const withDefaults = (o: DispatchOptions): Options => ({
  real: realClock(o),
  leaseMs: o.leaseMs ?? providerSendLeaseMs(),
  batchSize: o.batchSize ?? 100,
  now: o.now ?? (() => new Date()),
  customerIds: o.customerIds ?? null,
  housekeeping: o.housekeeping ?? true,
  afterRecord: o.afterRecord ?? null,
});

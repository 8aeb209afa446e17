// Whose database work this is (docs/database.md "Connections"): a request of one customer, or
// background work. The pool module (lib/db/pool.ts) reads it to pick the pool (requests run
// under PostgreSQL's statement_timeout, background work under none) and to keep one customer's
// requests within their share of the request connections, so that a burst of one customer
// (20 state changes of a broadcast, an export) never holds every connection while other
// customers' requests and the health check wait.
import { AsyncLocalStorage } from "node:async_hooks";
import { ApiError } from "@/lib/core/errors";

type DbContext = { background: boolean; customerId?: string };

const g = globalThis as { __switchboardDbContext?: AsyncLocalStorage<DbContext> };
g.__switchboardDbContext ??= new AsyncLocalStorage<DbContext>();
const store = g.__switchboardDbContext;

/** Runs `work` (a worker loop, and everything it starts) on the background pool. */
export function asBackgroundWork<T>(work: () => T): T {
  return store.run({ background: true }, work);
}

/** Runs one request; its customer is named by requestCustomer once the request is authenticated. */
export function asRequest<T>(handle: () => T): T {
  return store.run({ background: false }, handle);
}

/**
 * Runs `work` as belonging to no request: what a request happens to start first but serves the
 * whole process afterwards (the live streams' timer and subscription, lib/domains/live/hub.ts),
 * whose later callbacks would otherwise run as that request's, on its customer's share.
 */
export function outsideRequest<T>(work: () => T): T {
  return store.exit(work);
}

/** The authenticated customer of the request being run (asRequest): its later queries count against its share. */
export function requestCustomer(customerId: string): void {
  const current = store.getStore();
  if (current && !current.background) current.customerId = customerId;
}

export const inBackground = (): boolean => store.getStore()?.background === true;
export const currentCustomer = (): string | undefined => store.getStore()?.customerId;

/** How long a refused request should wait before trying again. */
const SHARE_RETRY_AFTER_SECONDS = 1;
const SHARE_FULL = `This account's other requests are using every database connection it may hold; retry in ${SHARE_RETRY_AFTER_SECONDS} second`;

/** 503 with Retry-After: this customer's requests hold their whole share of the connections. */
export function shareFull(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    SHARE_FULL,
    { retryAfterSeconds: SHARE_RETRY_AFTER_SECONDS },
    { "Retry-After": String(SHARE_RETRY_AFTER_SECONDS) },
  );
}

/**
 * shareFull as Prisma rethrows it (a PrismaClientKnownRequestError carrying its code and
 * message, not the error itself); registered by lib/db/pool.ts with errorAnswer.
 */
export function shareFullFrom(error: unknown): ApiError | undefined {
  const e = error as { clientVersion?: unknown; code?: unknown; message?: unknown } | null;
  if (typeof e?.clientVersion !== "string" || e.code !== "SERVICE_UNAVAILABLE") return undefined;
  return typeof e.message === "string" && e.message.includes(SHARE_FULL) ? shareFull() : undefined;
}

/**
 * A per-customer count of held connections: at most `limit` at once; a further one waits in
 * order for up to waitMs, then is refused (shareFull).
 */
export class CustomerShares {
  private readonly held = new Map<string, { n: number; waiting: (() => void)[] }>();

  constructor(
    private readonly limit: () => number,
    private readonly waitMs: () => number,
  ) {}

  /** Resolves with the function that gives the connection back (call it once). */
  acquire(customerId: string): Promise<() => void> {
    let entry = this.held.get(customerId);
    if (!entry) {
      entry = { n: 0, waiting: [] };
      this.held.set(customerId, entry);
    }
    const e = entry;
    const release = () => {
      const next = e.waiting.shift();
      if (next) return next(); // handed over: the count stays
      e.n -= 1;
      if (e.n === 0) this.held.delete(customerId);
    };
    if (e.n < this.limit()) {
      e.n += 1;
      return Promise.resolve(once(release));
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(once(release));
      };
      const timer = setTimeout(() => {
        e.waiting.splice(e.waiting.indexOf(grant), 1);
        reject(shareFull());
      }, this.waitMs());
      e.waiting.push(grant);
    });
  }

  /** Connections this customer holds now (tests). */
  heldBy(customerId: string): number {
    return this.held.get(customerId)?.n ?? 0;
  }
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    f();
  };
}

// The request connections (docs/database.md "Connections"): a statement timeout on every
// request connection and none on background work's, JIT compilation off on them, random pages priced for
// solid-state storage; a statement cancelled on its timeout
// answers 503 with Retry-After and the envelope, not a 500; one customer holds at most its
// share of the request connections, a request past it waits briefly and then answers 503.
import { describe, expect, inject, it } from "vitest";
import { asBackgroundWork, asRequest, CustomerShares, requestCustomer } from "@/lib/core/db-context";
import { errorAnswer } from "@/lib/core/error-answer";
import { db, hotRows } from "@/lib/db";
import { customerShares, REQUEST_RANDOM_PAGE_COST } from "./pool";

const postgres = inject("databaseKind") === "postgres";
const timeoutOf = async () =>
  (await hotRows<{ statement_timeout: string }>({ text: "SHOW statement_timeout", values: [] }))[0]?.statement_timeout;

/** A setting of the connection the statement runs on, and where it came from ("client": the pool's options). */
const settingOf = async (name: string) =>
  (
    await hotRows<{ setting: string; source: string }>({
      text: "SELECT setting, source FROM pg_settings WHERE name = $1",
      values: [name],
    })
  )[0];

// The embedded PGlite has no statement timeout (one statement at a time, no timer).
describe.runIf(postgres)("statement timeout", () => {
  it("is set on the request connections (30 s by default) and not on background work's", async () => {
    expect(await timeoutOf()).toBe("30s");
    expect(await asBackgroundWork(timeoutOf)).toBe("0");
    // The Prisma client follows the same pools.
    const [fromClient] = await db.$queryRawUnsafe<{ statement_timeout: string }[]>("SHOW statement_timeout");
    expect(fromClient?.statement_timeout).toBe("30s");
  });

  it("request connections compile no statement with JIT; background work's keep the server's setting", async () => {
    const jit = () => settingOf("jit");
    expect(await jit()).toEqual({ setting: "off", source: "client" });
    const [fromClient] = await db.$queryRawUnsafe<{ jit: string }[]>("SHOW jit");
    expect(fromClient?.jit).toBe("off");
    expect((await asBackgroundWork(jit))?.source).not.toBe("client");
  });

  it("request connections price a random page read for solid-state storage; background work's keep the server's", async () => {
    const cost = () => settingOf("random_page_cost");
    expect(await cost()).toEqual({ setting: REQUEST_RANDOM_PAGE_COST, source: "client" });
    const [fromClient] = await db.$queryRawUnsafe<{ random_page_cost: string }[]>("SHOW random_page_cost");
    expect(fromClient?.random_page_cost).toBe(REQUEST_RANDOM_PAGE_COST);
    expect((await asBackgroundWork(cost))?.source).not.toBe("client");
  });

  it("a statement cancelled on it answers 503 with Retry-After, not a 500", async () => {
    const caught = await db
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 50");
        await tx.$queryRawUnsafe("SELECT pg_sleep(2)");
      })
      .catch((error: unknown) => error);
    const answer = errorAnswer(caught);
    expect(answer).toMatchObject({ status: 503, kind: "SERVICE_UNAVAILABLE", unexpected: false });
    expect(answer.headers["Retry-After"]).toBe("5");
  });
});

// On PostgreSQL, where transactions run side by side and wait for a connection (the embedded
// PGlite queues them one at a time, where the same code, P2028, comes from a transaction that
// expired in the queue).
describe.runIf(postgres)("a busy database", () => {
  it("a transaction that cannot start within its wait answers 503 with Retry-After, not a 500", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // One transaction holds on; the next may wait 1 ms for its turn.
    const holding = db.$transaction(async (tx) => {
      await tx.$queryRawUnsafe("SELECT 1");
      await held;
    });
    const caught = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.$transaction(async (tx) => tx.$queryRawUnsafe("SELECT 1"), { maxWait: 1 }).catch((e: unknown) => e),
      ),
    );
    release();
    await holding;
    const refused = caught.filter((c) => c instanceof Error);
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      const answer = errorAnswer(error);
      expect(answer).toMatchObject({ status: 503, kind: "SERVICE_UNAVAILABLE", unexpected: false });
      expect(answer.headers["Retry-After"]).toBe("5");
    }
  });
});

describe("a customer's share of the request connections", () => {
  it("holds at most the limit; the next waits in order and is refused after the wait", async () => {
    const shares = new CustomerShares(
      () => 2,
      () => 50,
    );
    const one = await shares.acquire("c1");
    const two = await shares.acquire("c1");
    // Another customer is not held up.
    const theirs = await shares.acquire("c2");
    const third = shares.acquire("c1");
    expect(shares.heldBy("c1")).toBe(2);
    one();
    one(); // a second release of the same connection changes nothing
    const handed = await third;
    expect(shares.heldBy("c1")).toBe(2);
    const refused = await shares.acquire("c1").catch((error: unknown) => error);
    expect(errorAnswer(refused)).toMatchObject({ status: 503, kind: "SERVICE_UNAVAILABLE" });
    expect(errorAnswer(refused).headers["Retry-After"]).toBe("1");
    for (const release of [two, handed, theirs]) release();
    expect(shares.heldBy("c1")).toBe(0);
    expect(shares.heldBy("c2")).toBe(0);
  });
});

// The embedded PGlite runs every connection in one session: a share would keep nothing free there.
describe.runIf(postgres)("a customer's share of the request pool", () => {
  it("counts a request's queries and transactions while they hold a connection, through Prisma and hotRows", async () => {
    const customerId = `share_${Date.now()}`;
    let seen = 0;
    await asRequest(async () => {
      requestCustomer(customerId);
      await db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        seen = customerShares.heldBy(customerId);
      });
      await hotRows({ text: "SELECT 1", values: [] });
    });
    expect(seen).toBe(1);
    expect(customerShares.heldBy(customerId)).toBe(0);
  });

  it("a request past the share waits and then answers 503 through Prisma too", async () => {
    const customerId = `share_full_${Date.now()}`;
    const held = await Promise.all(Array.from({ length: 6 }, () => customerShares.acquire(customerId)));
    try {
      const caught = await asRequest(async () => {
        requestCustomer(customerId);
        return db.customer.findFirst({ where: { id: customerId } }).catch((error: unknown) => error);
      });
      expect(errorAnswer(caught)).toMatchObject({ status: 503, kind: "SERVICE_UNAVAILABLE" });
    } finally {
      for (const release of held) release();
    }
  });
});

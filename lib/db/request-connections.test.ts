// The request connections (docs/database.md "Connections"): a statement timeout on every
// request connection and none on background work's; a statement cancelled on its timeout
// answers 503 with Retry-After and the envelope, not a 500; one customer holds at most its
// share of the request connections, a request past it waits briefly and then answers 503.
import { describe, expect, inject, it } from "vitest";
import { asBackgroundWork, asRequest, CustomerShares, requestCustomer } from "@/lib/core/db-context";
import { errorAnswer } from "@/lib/core/error-answer";
import { db, hotRows } from "@/lib/db";
import { customerShares } from "./pool";

const postgres = inject("databaseKind") === "postgres";
const timeoutOf = async () =>
  (await hotRows<{ statement_timeout: string }>({ text: "SHOW statement_timeout", values: [] }))[0]?.statement_timeout;

// The embedded PGlite has no statement timeout (one statement at a time, no timer).
describe.runIf(postgres)("statement timeout", () => {
  it("is set on the request connections (30 s by default) and not on background work's", async () => {
    expect(await timeoutOf()).toBe("30s");
    expect(await asBackgroundWork(timeoutOf)).toBe("0");
    // The Prisma client follows the same pools.
    const [fromClient] = await db.$queryRawUnsafe<{ statement_timeout: string }[]>("SHOW statement_timeout");
    expect(fromClient?.statement_timeout).toBe("30s");
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

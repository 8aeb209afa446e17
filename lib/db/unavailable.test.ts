// Which failures mean "the database cannot be reached" (503 with Retry-After) and which are
// a statement's own (their own answer, or a 500): the shapes pg, @prisma/adapter-pg and the
// Prisma client give them. The whole path with a database that goes away:
// test/database-down.test.ts.
import { describe, expect, it } from "vitest";
import { errorAnswer } from "@/lib/core/error-answer";
import { databaseUnavailableFrom, isDatabaseUnavailable, onDatabase } from "./unavailable";

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
/** What a pool query of ours threw (hotRows marks it: lib/db/unavailable.ts onDatabase). */
const fromPool = async (error: unknown) => onDatabase(() => Promise.reject(error)).catch((marked: unknown) => marked);

const refused = await fromPool(coded("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"));
const reset = await fromPool(coded("read ECONNRESET", "ECONNRESET"));
const bothRefused = await fromPool(new AggregateError([coded("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")]));

describe("a database that cannot be reached", () => {
  it.each([
    ["pg: refused", refused],
    ["pg: reset", reset],
    ["pg: both addresses refused", bothRefused],
    ["pg: dropped mid-query", new Error("Connection terminated unexpectedly")],
    ["pg: no connection in time", new Error("timeout exceeded when trying to connect")],
    ["PostgreSQL: shut down", coded("terminating connection due to administrator command", "57P01")],
    ["PostgreSQL: starting up", coded("the database system is starting up", "57P03")],
    ["PostgreSQL: too many connections", coded("sorry, too many clients already", "53300")],
    [
      "Prisma with the adapter",
      Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
        code: "P1001",
        meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } },
      }),
    ],
    ["Prisma: pool timeout", Object.assign(new Error("Timed out fetching a new connection"), { code: "P2024" })],
    ["wrapped", new Error("query failed", { cause: new Error("Connection terminated due to connection timeout") })],
  ])("%s: 503 with Retry-After", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    const answer = errorAnswer(databaseUnavailableFrom(error));
    expect(answer).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", headers: { "Retry-After": "5" } });
    expect(answer.message).not.toMatch(/ECONN|5432|terminated/);
  });

  it.each([
    ["a unique violation", Object.assign(new Error("Unique constraint failed"), { code: "P2002" })],
    ["a statement error", coded('relation "x" does not exist', "42P01")],
    ["a serialization failure", coded("could not serialize access", "40001")],
    ["a plain bug", new TypeError("cannot read properties of undefined")],
    [
      "a refused fetch to another service",
      new TypeError("fetch failed", { cause: coded("connect ECONNREFUSED 10.0.0.5:443", "ECONNREFUSED") }),
    ],
    ["not an error", "ECONNREFUSED"],
  ])("%s: not this", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

// Pagination (docs/api/pagination.md): generic endpoints clamp, billing messages rejects.
import { describe, expect, it } from "vitest";
import { MAX_PAGE, PageQuery, pageBlock, skipTake, strictPageQuery } from "./pagination";

const parse = (q: Record<string, string>) => PageQuery.parse(q);

describe("PageQuery (clamping)", () => {
  it("defaults to page 1, limit 50", () => {
    expect(parse({})).toEqual({ page: 1, limit: 50 });
    expect(parse({ page: "", limit: "  " })).toEqual({ page: 1, limit: 50 });
  });

  it("clamps 0 and negatives up to 1", () => {
    expect(parse({ page: "0", limit: "0" })).toEqual({ page: 1, limit: 1 });
    expect(parse({ page: "-3", limit: "-100" })).toEqual({ page: 1, limit: 1 });
    expect(parse({ page: "-Infinity", limit: "-1e400" })).toEqual({ page: 1, limit: 1 });
  });

  it("clamps huge values to the maximum (limit 100)", () => {
    expect(parse({ limit: "101" })).toEqual({ page: 1, limit: 100 });
    expect(parse({ page: "99999999999999999999", limit: "1e400" })).toEqual({ page: MAX_PAGE, limit: 100 });
    expect(parse({ page: "Infinity", limit: "Infinity" })).toEqual({ page: MAX_PAGE, limit: 100 });
  });

  it("falls back to the default for non-numeric values", () => {
    expect(parse({ page: "abc", limit: "ten" })).toEqual({ page: 1, limit: 50 });
    expect(parse({ page: "NaN", limit: "1O" })).toEqual({ page: 1, limit: 50 });
  });

  it("truncates decimals", () => {
    expect(parse({ page: "2.9", limit: "10.5" })).toEqual({ page: 2, limit: 10 });
    expect(parse({ page: "0.5", limit: "0.99" })).toEqual({ page: 1, limit: 1 });
    expect(parse({ page: " 3 ", limit: "2e1" })).toEqual({ page: 3, limit: 20 });
  });

  it("never fails, whatever it is given", () => {
    for (const v of ["", "-", "+", "0x10", "1,5", "١٢", "null", "[]", "9".repeat(400)]) {
      const r = PageQuery.safeParse({ page: v, limit: v });
      expect(r.success).toBe(true);
      if (r.success) {
        expect(Number.isInteger(r.data.page) && r.data.page >= 1 && r.data.page <= MAX_PAGE).toBe(true);
        expect(Number.isInteger(r.data.limit) && r.data.limit >= 1 && r.data.limit <= 100).toBe(true);
      }
    }
  });
});

describe("strictPageQuery (billing messages: maximum 200)", () => {
  const strict = strictPageQuery(200);
  const error = (q: Record<string, string>) => {
    const r = strict.safeParse(q);
    return r.success ? undefined : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("accepts positive integers up to the maximum and defaults like the others", () => {
    expect(strict.parse({})).toEqual({ page: 1, limit: 50 });
    expect(strict.parse({ page: "3", limit: "200" })).toEqual({ page: 3, limit: 200 });
    expect(strict.parse({ page: " 7 ", limit: "1" })).toEqual({ page: 7, limit: 1 });
  });

  it("rejects 0, negatives, decimals, non-numeric values and more than the maximum", () => {
    expect(error({ page: "0" })).toEqual(["page: page must be a positive integer"]);
    expect(error({ limit: "-1" })).toEqual(["limit: limit must be a positive integer"]);
    expect(error({ page: "1.5" })).toEqual(["page: page must be a positive integer"]);
    expect(error({ limit: "abc" })).toEqual(["limit: limit must be a positive integer"]);
    expect(error({ limit: "1e2" })).toEqual(["limit: limit must be a positive integer"]);
    expect(error({ limit: "201" })).toEqual(["limit: limit must be at most 200"]);
    expect(error({ page: "99999999999999999999" })).toEqual([`page: page must be at most ${MAX_PAGE}`]);
  });
});

describe("pageBlock and skipTake", () => {
  it("computes totals, hasMore and offsets", () => {
    expect(pageBlock(1, 50, 0, 0)).toEqual({ page: 1, limit: 50, total: 0, totalPages: 0, count: 0, hasMore: false });
    expect(pageBlock(1, 2, 5, 2)).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3, count: 2, hasMore: true });
    expect(pageBlock(3, 2, 5, 1)).toMatchObject({ totalPages: 3, count: 1, hasMore: false });
    expect(pageBlock(9, 2, 5, 0)).toMatchObject({ count: 0, hasMore: false });
    expect(skipTake({ page: 1, limit: 50 })).toEqual({ skip: 0, take: 50 });
    expect(skipTake({ page: 4, limit: 25 })).toEqual({ skip: 75, take: 25 });
    const last = skipTake({ page: MAX_PAGE, limit: 100 });
    expect(Number.isSafeInteger(last.skip) && last.skip < 2 ** 31).toBe(true);
  });
});

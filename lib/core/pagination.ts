// Pagination (docs/api/pagination.md): generic endpoints clamp; billing messages validates strictly.
import { z } from "zod";

function clampInt(fallback: number, min: number, max: number) {
  return z
    .unknown()
    .optional()
    .transform((v) => {
      const n = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : Number.NaN;
      // Not a number: the default. Anything numeric (decimals, negatives, 1e999) clamps.
      if (Number.isNaN(n)) return fallback;
      return Math.min(max, Math.max(min, Math.trunc(n)));
    })
    .meta({ type: "integer", default: fallback, minimum: min, maximum: max } as Record<string, unknown>);
}

/** The largest page served: keeps (page - 1) * limit a safe integer offset for any driver. */
export const MAX_PAGE = 10_000_000;

/** page >= 1 (clamped), limit 1..100 (clamped), defaults 1 and 50. */
export const PageQuery = z.object({
  page: clampInt(1, 1, MAX_PAGE).describe("Page number, default 1; values below 1 are clamped to 1"),
  limit: clampInt(50, 1, 100).describe("Page size, default 50, maximum 100 (larger values are clamped)"),
});
export type PageInput = z.infer<typeof PageQuery>;

export type PageBlock = {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  count: number;
  hasMore: boolean;
};

/** The pagination block of list answers, for response schemas (the OpenAPI document). */
export const PageBlockSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  count: z.number().int(),
  hasMore: z.boolean(),
});

export function pageBlock(page: number, limit: number, total: number, count: number): PageBlock {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, count, hasMore: page * limit < total };
}

/** A list answer's rows: under their own name, and again as `items`, the alias every list carries. */
export function listOf<K extends string, T>(key: K, rows: T[]): { [name in K]: T[] } & { items: T[] } {
  return { [key]: rows, items: rows } as { [name in K]: T[] } & { items: T[] };
}

/** A paginated list answer: listOf and the block of this page of `total` rows. */
export const pageOf = <K extends string, T>(key: K, rows: T[], page: PageInput, total: number) => ({
  ...listOf(key, rows),
  pagination: pageBlock(page.page, page.limit, total, rows.length),
});

export const skipTake = ({ page, limit }: PageInput) => ({ skip: (page - 1) * limit, take: limit });

function strictInt(name: string, fallback: number, max: number) {
  return z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      const text = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : undefined;
      if (v === undefined || text === "") return fallback;
      if (text === undefined || !/^\d+$/.test(text) || Number(text) < 1) {
        ctx.addIssue({ code: "custom", message: `${name} must be a positive integer` });
        return z.NEVER;
      }
      const n = Number(text);
      if (n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be at most ${max}` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ type: "integer", default: fallback, minimum: 1, maximum: max } as Record<string, unknown>);
}

/**
 * Strict paging for endpoints whose contract rejects instead of clamping (billing
 * messages: limit at most 200): anything but a positive integer is VALIDATION_FAILED.
 */
export function strictPageQuery(maxLimit: number) {
  return z.object({
    page: strictInt("page", 1, MAX_PAGE).describe("Positive integer, default 1"),
    limit: strictInt("limit", 50, maxLimit).describe(`Positive integer, default 50, maximum ${maxLimit}`),
  });
}

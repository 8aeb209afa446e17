import { buttonSecondary } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";
import { formatCount } from "@/lib/core/count";
import type { PageBlock } from "@/lib/core/pagination";
import { withParams } from "@/lib/dashboard/search-params";

/** The part of a list's pagination block the pager shows: a list read without a count has no total. */
type PagerBlock = Pick<PageBlock, "page" | "hasMore"> & Partial<Pick<PageBlock, "total" | "totalPages">>;

/**
 * Previous / next links that keep every other query parameter, and "Page n of m · t total"
 * from the list's pagination block as its service answered it (`pageBlock` for a service
 * that answers a total). `pageParam`: a second list's page on one page.
 */
export function Pager({
  path,
  params,
  pagination: { page, hasMore, total, totalPages },
  pageParam = "page",
  label = "Pagination",
}: {
  path: string;
  params: Record<string, string>;
  pagination: PagerBlock;
  pageParam?: string;
  label?: string;
}) {
  const off = "pointer-events-none opacity-50";
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <IntentLink
        href={`${path}${withParams(params, { [pageParam]: page > 2 ? String(page - 1) : undefined })}`}
        className={`${buttonSecondary} ${page <= 1 ? off : ""}`}
        aria-disabled={page <= 1}
        tabIndex={page <= 1 ? -1 : undefined}
        rel="prev"
      >
        Previous
      </IntentLink>
      <span>
        Page {formatCount(page)}
        {totalPages !== undefined ? ` of ${formatCount(Math.max(1, totalPages))}` : ""}
        {total !== undefined ? ` · ${formatCount(total)} total` : ""}
      </span>
      <IntentLink
        href={`${path}${withParams(params, { [pageParam]: String(page + 1) })}`}
        className={`${buttonSecondary} ${!hasMore ? off : ""}`}
        aria-disabled={!hasMore}
        tabIndex={!hasMore ? -1 : undefined}
        rel="next"
      >
        Next
      </IntentLink>
    </nav>
  );
}

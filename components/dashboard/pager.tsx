import Link from "next/link";
import { buttonSecondary } from "@/components/ui/classes";
import { formatCount } from "@/lib/core/count";
import { withParams } from "@/lib/dashboard/search-params";

/** Previous / next links that keep every other query parameter (`pageParam`: a second list's page on one page). */
export function Pager({
  path,
  params,
  page,
  hasMore,
  total,
  totalPages,
  pageParam = "page",
  label = "Pagination",
}: {
  path: string;
  params: Record<string, string>;
  page: number;
  hasMore: boolean;
  total?: number;
  totalPages?: number;
  pageParam?: string;
  label?: string;
}) {
  const off = "pointer-events-none opacity-50";
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <Link
        href={`${path}${withParams(params, { [pageParam]: page > 2 ? String(page - 1) : undefined })}`}
        className={`${buttonSecondary} ${page <= 1 ? off : ""}`}
        aria-disabled={page <= 1}
        tabIndex={page <= 1 ? -1 : undefined}
        rel="prev"
      >
        Previous
      </Link>
      <span>
        Page {formatCount(page)}
        {totalPages !== undefined ? ` of ${formatCount(Math.max(1, totalPages))}` : ""}
        {total !== undefined ? ` · ${formatCount(total)} total` : ""}
      </span>
      <Link
        href={`${path}${withParams(params, { [pageParam]: String(page + 1) })}`}
        className={`${buttonSecondary} ${!hasMore ? off : ""}`}
        aria-disabled={!hasMore}
        tabIndex={!hasMore ? -1 : undefined}
        rel="next"
      >
        Next
      </Link>
    </nav>
  );
}

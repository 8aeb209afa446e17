import Link from "next/link";
import { buttonSecondary } from "@/components/ui/classes";
import { withParams } from "@/lib/dashboard/search-params";

/** Previous / next links that keep every other query parameter. */
export function Pager({
  path,
  params,
  page,
  hasMore,
  total,
  totalPages,
}: {
  path: string;
  params: Record<string, string>;
  page: number;
  hasMore: boolean;
  total?: number;
  totalPages?: number;
}) {
  const off = "pointer-events-none opacity-50";
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <Link
        href={`${path}${withParams(params, { page: page > 2 ? String(page - 1) : undefined })}`}
        className={`${buttonSecondary} ${page <= 1 ? off : ""}`}
        aria-disabled={page <= 1}
        tabIndex={page <= 1 ? -1 : undefined}
        rel="prev"
      >
        Previous
      </Link>
      <span>
        Page {page}
        {totalPages !== undefined ? ` of ${Math.max(1, totalPages)}` : ""}
        {total !== undefined ? ` · ${total.toLocaleString("en-US")} total` : ""}
      </span>
      <Link
        href={`${path}${withParams(params, { page: String(page + 1) })}`}
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

"use client";
// The delivery log's status filter and refresh: the filter writes the URL (a copied link
// reopens the same view); Refresh and the optional auto-refresh re-render the server page.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { buttonSecondary, input, label } from "@/components/ui/classes";

export const AUTO_REFRESH_MS = 5_000;

export function DeliveryLogControls({ statuses }: { statuses: readonly string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();
  const [auto, setAuto] = useState(false);
  const [refreshedAt, setRefreshedAt] = useState<Date | null>(null);

  const refresh = () =>
    startTransition(() => {
      router.refresh();
      setRefreshedAt(new Date());
    });

  useEffect(() => {
    if (!auto) return;
    const timer = setInterval(refresh, AUTO_REFRESH_MS);
    return () => clearInterval(timer);
  });

  const setStatus = (status: string) => {
    const next = new URLSearchParams(params);
    if (status) next.set("status", status);
    else next.delete("status");
    next.delete("page");
    next.delete("delivery");
    startTransition(() => router.replace(`${pathname}?${next}`, { scroll: false }));
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="delivery-status" className={label}>
          Delivery status
        </label>
        <select
          id="delivery-status"
          className={`${input} mt-1 w-auto`}
          value={params.get("status") ?? ""}
          onChange={(e) => setStatus(e.target.value)}
        >
          <option value="">All</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s.toLowerCase()}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className={buttonSecondary} onClick={refresh} disabled={pending}>
        {pending ? "Refreshing…" : "Refresh"}
      </button>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.target.checked)} />
        Auto-refresh every {AUTO_REFRESH_MS / 1000} s
      </label>
      <p className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite" data-testid="delivery-log-refreshed">
        {refreshedAt ? `Refreshed ${refreshedAt.toLocaleTimeString("en-US")}` : ""}
      </p>
    </div>
  );
}

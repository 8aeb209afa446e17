"use client";
// The live count while the form changes: the draft is checked with the API's own schema, then
// counted by /api/dashboard/broadcasts/estimate once it has stopped changing for a moment
// (typing a filter value asks once, not per key). The last answer stays shown while the next
// one is on its way.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import type { DraftEstimate } from "@/lib/domains/broadcasts/draft-estimate";
import { BroadcastDraftBody } from "@/lib/domains/broadcasts/schemas";

const DEBOUNCE_MS = 400;

export type { DraftEstimate };

export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

async function fetchEstimate(body: string): Promise<DraftEstimate> {
  return (await dashboardApi.broadcastEstimate(body)).estimate;
}

/** The draft's estimate; `ready` is false while the draft cannot be counted yet (no book, no template). */
export function useDraftEstimate(draft: unknown) {
  const parsed = BroadcastDraftBody.safeParse(draft);
  const key = parsed.success ? JSON.stringify(parsed.data) : "";
  const settled = useDebounced(key, DEBOUNCE_MS);
  const query = useQuery({
    queryKey: queryKeys.broadcastEstimate(settled),
    queryFn: () => fetchEstimate(settled),
    enabled: settled !== "",
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    retry: false,
  });
  return {
    ready: key !== "",
    /** The draft changed since the shown answer was asked for. */
    updating: key !== settled || query.isFetching,
    data: key === "" ? undefined : query.data,
    error: key !== "" && query.isError ? query.error.message : null,
  };
}

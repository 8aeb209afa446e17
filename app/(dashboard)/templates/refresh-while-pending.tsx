"use client";
// While a template is in review, the page reloads its data every two seconds so that the
// provider's verdict (a callback, docs/templates.md "Review") shows without a manual reload;
// only while the server answers, so a restart does not lose the page.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { refreshWhenReachable } from "@/components/dashboard/refresh-when-reachable";

export function RefreshWhilePending({ pending }: { pending: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void refreshWhenReachable(router), 2_000);
    return () => clearInterval(timer);
  }, [pending, router]);
  return null;
}

"use client";
// While a template is in review, the page reloads its data every two seconds so that the
// provider's verdict (a callback, docs/templates.md "Review") shows without a manual reload.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function RefreshWhilePending({ pending }: { pending: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => router.refresh(), 2_000);
    return () => clearInterval(timer);
  }, [pending, router]);
  return null;
}

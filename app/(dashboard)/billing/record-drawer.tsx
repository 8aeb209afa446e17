"use client";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useRef } from "react";
import { IntentLink } from "@/components/ui/intent-link";

/** A side panel for one record: focused when it opens, Escape or the link closes it. */
export function RecordDrawer({
  title,
  closeHref,
  children,
}: {
  title: string;
  closeHref: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") router.push(closeHref, { scroll: false });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [closeHref, router]);
  return (
    <div className="fixed inset-0 z-40 flex justify-end bg-black/30">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby="drawer-title"
        tabIndex={-1}
        className="h-full w-full max-w-md overflow-y-auto bg-white p-6 shadow-xl focus:outline-none dark:bg-slate-900"
      >
        <div className="mb-4 flex items-center justify-between">
          <h2 id="drawer-title" className="text-lg font-semibold">
            {title}
          </h2>
          <IntentLink href={closeHref} scroll={false} className="rounded px-2 py-1 text-sm underline">
            Close
          </IntentLink>
        </div>
        {children}
      </div>
    </div>
  );
}
